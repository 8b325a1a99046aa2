// The floor of section 1: a Worker that does nothing, served by the same wrangler dev as the
// service, so its throughput is what the platform alone allows on this machine.
export default {
  fetch(): Response {
    return new Response("ok");
  },
};
