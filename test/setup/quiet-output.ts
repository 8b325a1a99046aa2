import type { Plugin } from "vite";

/**
 * What a passing run prints is the test names and the summary. Two kinds of line are dropped
 * here, each for a reason (console output of tests is shown only for failing tests, by
 * `silent: "passed-only"`):
 */

/**
 * Vite warns for every third-party module whose published source map names sources it does not
 * ship (Stripe's do). Vitest installs its own logger on each project, so this plugin filters that
 * logger once the config is resolved.
 */
export function quietThirdPartySourceMaps(): Plugin {
  const thirdPartySourceMap = /^Sourcemap for ".*\/node_modules\/.*" points to missing source files/;
  return {
    name: "quiet-third-party-source-maps",
    configResolved({ logger }) {
      const { warn, warnOnce } = logger;
      logger.warn = (message, options) => void (thirdPartySourceMap.test(message) || warn.call(logger, message, options));
      logger.warnOnce = (message, options) => void (thirdPartySourceMap.test(message) || warnOnce.call(logger, message, options));
    },
  };
}

/**
 * workerd reports the instance that a test tears down with `ctx.abort("simulated restart ...")`
 * as an uncaught exception of that instance: the expected effect of the test, not a failure.
 * The pool writes workerd's logs straight to this process's stdout and stderr, so the report
 * (with its stack line) is dropped there.
 */
export function dropSimulatedRestartLines(): void {
  const expected = /^uncaught exception; .*outputGateBroken; jsg\.Error: simulated restart/;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => expected.test(String(chunk)) || write(chunk, ...rest)) as typeof stream.write;
  }
}
