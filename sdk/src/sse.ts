/** One dispatched Server-Sent Event, as the wire carried it. */
export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/**
 * An incremental parser of the text/event-stream format (the WHATWG rules): lines end with LF,
 * CRLF or CR, even split across chunks; `:` lines are comments (keep-alives); an event is
 * dispatched at a blank line, so a frame cut off by a dropped connection is never dispatched.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | null = null;
  private decoder = new TextDecoder();

  /** Feeds bytes (or text); returns the events they complete. */
  push(chunk: Uint8Array | string): SseMessage[] {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const messages: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (!match || (match[0] === "\r" && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  /** The stream ended: a trailing CR ends its line (nothing follows to make it a CRLF); an unfinished event is dropped. */
  end(): SseMessage[] {
    const messages = this.buffer.endsWith("\r") ? this.push("\n") : [];
    this.buffer = "";
    this.data = [];
    this.event = "";
    return messages;
  }

  private line(line: string): SseMessage | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const message = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
      this.data = [];
      this.event = "";
      return message;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }
}
