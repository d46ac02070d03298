/**
 * Uploads: files chosen in `<input type="file" data-sc-upload>` or dropped on an element
 * with `data-sc-upload-drop` are sent to the server over the page's socket, with
 * progress per file, cancel, and resume after a dropped connection from the last byte
 * the server acknowledged (docs/PROTOCOL.md, "Uploads").
 *
 * Each file is announced on the topic of the nearest `data-sc-topic` element (the
 * server refuses it at once when it breaks the topic's limits), then sent as binary
 * chunks, at most the server's `window` of them unacknowledged: a slow server (a slow
 * disk) slows the page down instead of filling its memory, and only that many chunks
 * are read from the file at a time. The store receives each finished file as an
 * action; what it shows of it is the page's view like any other state.
 *
 * Progress rows go into the topic's `[data-sc-upload-list]` element: one
 * `li.sc-upload` per file, with `data-state` `sending`, `done`, `failed` or
 * `cancelled`, a `<progress>`, the percentage, a Cancel button, and the server's message.
 *
 * @example
 * <section data-sc-topic="uploads">
 *   <div data-sc-upload-drop>Drop files here, or <input type="file" multiple data-sc-upload></div>
 *   <ul data-sc-upload-list></ul>
 * </section>
 * @module
 */

/**
 * What uploads need of the client: requests, binary messages, and its events.
 * @typedef {object} UploadPort
 * @property {(message: Record<string, unknown>) => Promise<any>} request
 * @property {(bytes: Uint8Array) => boolean} sendBinary
 * @property {(type: string, listener: (detail: any) => void) => () => void} on
 * @property {string} connectionState
 */

/**
 * @typedef {object} UploadEvents
 * @property {(acknowledged: number, size: number) => void} [progress]
 * @property {(result: { size: number, sha256: string }) => void} [done]
 * @property {(message: string) => void} [failed]
 * @property {(id: string) => void} [announced] the server accepted the file under `id`
 */

/**
 * The 16 bytes of a 32-hex-digit id.
 * @param {string} id
 */
function idBytes(id) {
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(id.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** One file on its way to the server. */
export class Upload {
  /** @type {string | null} */
  id = null;
  /** Bytes the server has on disk. */
  acknowledged = 0;
  /** Bytes sent (or being read to be sent). */
  sent = 0;
  chunkSize = 65512;
  window = 4;
  /** @type {"announcing" | "sending" | "paused" | "done" | "failed" | "cancelled"} */
  state = "announcing";
  #reading = false;
  /** @type {{ offset: number, bytes: Uint8Array } | null} the part of the file read last */
  #block = null;

  /**
   * @param {UploadPort} port
   * @param {string} topic
   * @param {Blob & { name: string, type: string }} file
   * @param {UploadEvents} events
   */
  constructor(port, topic, file, events) {
    this.port = port;
    this.topic = topic;
    this.file = file;
    this.events = events;
  }

  /** Announces the file; its chunks follow as the server acknowledges them. */
  async start() {
    const { file } = this;
    const reply = await this.port
      .request({ op: "upload", topic: this.topic, name: file.name || "file", size: file.size, type: file.type })
      .catch((error) => ({ status: "error", error }));
    if (this.state === "cancelled") {
      if (reply.status === "ok") this.port.request({ op: "upload_cancel", upload: reply.upload }).catch(() => {});
      return;
    }
    if (reply.status !== "ok") return this.#fail(reply.error?.message ?? "the upload was refused");
    /** @type {string} */
    const id = reply.upload;
    this.id = id;
    this.chunkSize = reply.chunk;
    this.window = reply.window;
    this.events.announced?.(id);
    this.#continueFrom(reply.offset, reply.done, reply.sha256);
  }

  /** Asks the server where to continue, after the socket came back. */
  async resume() {
    if (this.id === null || (this.state !== "sending" && this.state !== "paused")) return;
    this.state = "paused";
    const reply = await this.port.request({ op: "upload_resume", upload: this.id }).catch(() => null);
    if (reply === null || this.state !== "paused") return;
    if (reply.status !== "ok") return this.#fail(reply.error?.message ?? "the server no longer has this upload");
    this.#continueFrom(reply.offset, reply.done, reply.sha256);
  }

  /** Stops the upload; the server removes what it received. */
  cancel() {
    if (this.state === "done" || this.state === "failed" || this.state === "cancelled") return;
    this.state = "cancelled";
    this.events.failed?.("cancelled");
    if (this.id !== null) this.port.request({ op: "upload_cancel", upload: this.id }).catch(() => {});
  }

  /** The socket dropped: nothing is sent until `resume`. */
  pause() {
    if (this.state === "sending") this.state = "paused";
  }

  /** @param {any} message an `upload_ack`, `upload_done` or `upload_error` for this upload */
  receive(message) {
    if (this.state === "cancelled" || this.state === "failed" || this.state === "done") return;
    if (message.op === "upload_ack") {
      if (message.offset <= this.acknowledged) return;
      this.acknowledged = message.offset;
      this.events.progress?.(this.acknowledged, this.file.size);
      this.#pump();
    } else if (message.op === "upload_done") {
      this.state = "done";
      this.acknowledged = message.size;
      this.events.progress?.(message.size, this.file.size);
      this.events.done?.({ size: message.size, sha256: message.sha256 });
    } else if (message.op === "upload_error") {
      if (message.error?.code !== "bad_chunk") return this.#fail(message.error?.message ?? "the upload failed");
      // A chunk the server did not take: send again from where it expects.
      this.sent = Math.max(this.acknowledged, Math.min(this.sent, message.offset));
      this.#pump();
    }
  }

  /**
   * @param {number} offset
   * @param {boolean} done
   * @param {string} [sha256] the server's hash, when the reply has it (an empty file)
   */
  #continueFrom(offset, done, sha256 = "") {
    this.acknowledged = offset;
    this.sent = offset;
    this.events.progress?.(offset, this.file.size);
    if (done) {
      this.state = "done";
      this.events.done?.({ size: this.file.size, sha256 });
      return;
    }
    this.state = "sending";
    this.#pump();
  }

  /** Sends chunks while fewer than `window` are unacknowledged. */
  async #pump() {
    if (this.#reading) return;
    this.#reading = true;
    try {
      while (this.state === "sending" && this.sent < this.file.size && this.sent - this.acknowledged < this.window * this.chunkSize) {
        const offset = this.sent;
        const end = Math.min(offset + this.chunkSize, this.file.size);
        const data = await this.#read(offset, end);
        if (this.state !== "sending" || this.sent !== offset || this.id === null) break;
        const frame = new Uint8Array(24 + data.length);
        frame.set(idBytes(this.id), 0);
        const view = new DataView(frame.buffer);
        view.setUint32(16, Math.floor(offset / 2 ** 32));
        view.setUint32(20, offset >>> 0);
        frame.set(data, 24);
        if (!this.port.sendBinary(frame)) {
          this.pause();
          break;
        }
        this.sent = end;
      }
    } finally {
      this.#reading = false;
    }
  }

  /**
   * Bytes `offset..<end` of the file. Reading a file is a round trip to the browser's
   * own process, so it is read a block of 16 chunks at a time (at most 1 MiB here).
   * @param {number} offset
   * @param {number} end
   * @returns {Promise<Uint8Array>}
   */
  async #read(offset, end) {
    let block = this.#block;
    if (block === null || offset < block.offset || end > block.offset + block.bytes.length) {
      const blockEnd = Math.min(offset + 16 * this.chunkSize, this.file.size);
      block = { offset, bytes: new Uint8Array(await this.file.slice(offset, blockEnd).arrayBuffer()) };
      this.#block = block;
    }
    return block.bytes.subarray(offset - block.offset, end - block.offset);
  }

  /** @param {string} message */
  #fail(message) {
    this.state = "failed";
    this.events.failed?.(message);
  }
}

/**
 * The page's uploads: routes the server's upload messages to them and resumes them
 * when the socket comes back.
 */
export class Uploads {
  /** @type {Map<string, Upload>} by id, once announced */
  #byId = new Map();
  /** @type {Set<Upload>} */
  #all = new Set();

  /** @param {UploadPort} port */
  constructor(port) {
    this.port = port;
    port.on("message", (message) => {
      if (typeof message?.op === "string" && message.op.startsWith("upload_")) this.#byId.get(message.upload)?.receive(message);
    });
    port.on("connectionstatechange", ({ state }) => {
      for (const upload of this.#all) {
        if (state === "connected") upload.resume();
        else upload.pause();
      }
    });
  }

  /**
   * Uploads `file` to `topic`.
   * @param {string} topic
   * @param {Blob & { name: string, type: string }} file
   * @param {UploadEvents} [events]
   * @returns {Upload}
   */
  upload(topic, file, events = {}) {
    /** @type {Upload} */
    const upload = new Upload(this.port, topic, file, {
      ...events,
      done: (result) => {
        this.#forget(upload);
        events.done?.(result);
      },
      failed: (message) => {
        this.#forget(upload);
        events.failed?.(message);
      },
    });
    this.#all.add(upload);
    upload.events.announced = (id) => {
      if (this.#all.has(upload)) this.#byId.set(id, upload);
      events.announced?.(id);
    };
    upload.start();
    return upload;
  }

  /** @param {Upload} upload */
  #forget(upload) {
    this.#all.delete(upload);
    if (upload.id !== null) this.#byId.delete(upload.id);
  }
}
