// One upload against a fake port: the window of chunks in flight, the frames' header,
// a refused chunk sent again, a pause and a resume from the server's offset, a refusal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Upload } from "../../Runtime/statecast/uploads.js";

const ID = "00112233445566778899aabbccddeeff";

/** A port that records requests and frames, answering requests from `answers`. */
function fakePort(answers) {
  const port = {
    requests: [],
    frames: [],
    open: true,
    request(message) {
      port.requests.push(message);
      return Promise.resolve(answers[message.op]?.(message) ?? { status: "ok" });
    },
    sendBinary(bytes) {
      if (!port.open) return false;
      port.frames.push(bytes.slice());
      return true;
    },
    on() {
      return () => {};
    },
    connectionState: "connected",
  };
  return port;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function offsetOf(frame) {
  const view = new DataView(frame.buffer, frame.byteOffset);
  return view.getUint32(16) * 2 ** 32 + view.getUint32(20);
}

function file(size) {
  const bytes = new Uint8Array(size).map((_, i) => i % 251);
  return new File([bytes], "data.bin", { type: "application/octet-stream" });
}

test("an upload keeps at most its window of chunks unacknowledged, then finishes", async () => {
  const port = fakePort({ upload: () => ({ status: "ok", upload: ID, offset: 0, chunk: 10, window: 2, done: false }) });
  const events = { progress: [], done: null };
  const upload = new Upload(port, "uploads", file(45), {
    progress: (acknowledged) => events.progress.push(acknowledged),
    done: (result) => (events.done = result),
  });
  await upload.start();
  await settle();
  assert.deepEqual(port.requests[0], { op: "upload", topic: "uploads", name: "data.bin", size: 45, type: "application/octet-stream" });
  assert.deepEqual(port.frames.map(offsetOf), [0, 10]);
  const first = port.frames[0];
  assert.equal(Array.from(first.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join(""), ID);
  assert.deepEqual(Array.from(first.subarray(24)), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  upload.receive({ op: "upload_ack", upload: ID, offset: 10 });
  await settle();
  assert.deepEqual(port.frames.map(offsetOf), [0, 10, 20]);
  upload.receive({ op: "upload_ack", upload: ID, offset: 30 });
  await settle();
  assert.deepEqual(port.frames.map(offsetOf), [0, 10, 20, 30, 40]);
  assert.equal(port.frames[4].length, 24 + 5);
  upload.receive({ op: "upload_ack", upload: ID, offset: 45 });
  upload.receive({ op: "upload_done", upload: ID, size: 45, sha256: "ab".repeat(32) });
  assert.deepEqual(events.done, { size: 45, sha256: "ab".repeat(32) });
  assert.deepEqual(events.progress, [0, 10, 30, 45, 45]);
  assert.equal(upload.state, "done");
});

test("a refused chunk is sent again from where the server expects it", async () => {
  const port = fakePort({ upload: () => ({ status: "ok", upload: ID, offset: 0, chunk: 10, window: 3, done: false }) });
  const upload = new Upload(port, "uploads", file(30), {});
  await upload.start();
  await settle();
  assert.deepEqual(port.frames.map(offsetOf), [0, 10, 20]);
  upload.receive({ op: "upload_error", upload: ID, offset: 10, error: { code: "bad_chunk", message: "…" } });
  await settle();
  assert.deepEqual(port.frames.map(offsetOf), [0, 10, 20, 10, 20]);
});

test("after a drop nothing is sent until the resume, which goes on from the server's offset", async () => {
  const port = fakePort({
    upload: () => ({ status: "ok", upload: ID, offset: 0, chunk: 10, window: 2, done: false }),
    upload_resume: () => ({ status: "ok", upload: ID, offset: 20, chunk: 10, window: 2, done: false }),
  });
  const upload = new Upload(port, "uploads", file(50), {});
  await upload.start();
  await settle();
  port.open = false;
  upload.pause();
  upload.receive({ op: "upload_ack", upload: ID, offset: 10 });
  await settle();
  assert.deepEqual(port.frames.map(offsetOf), [0, 10]);
  port.open = true;
  await upload.resume();
  await settle();
  assert.deepEqual(port.requests.at(-1), { op: "upload_resume", upload: ID });
  assert.deepEqual(port.frames.map(offsetOf), [0, 10, 20, 30]);
});

test("a refused announcement fails the upload with the server's message; a cancel tells the server", async () => {
  const refused = fakePort({ upload: () => ({ status: "error", error: { code: "upload_refused", message: "data.bin is too large" } }) });
  let failure = null;
  await new Upload(refused, "uploads", file(5), { failed: (message) => (failure = message) }).start();
  assert.equal(failure, "data.bin is too large");
  assert.equal(refused.frames.length, 0);

  const port = fakePort({ upload: () => ({ status: "ok", upload: ID, offset: 0, chunk: 10, window: 1, done: false }) });
  const upload = new Upload(port, "uploads", file(30), {});
  await upload.start();
  await settle();
  upload.cancel();
  assert.deepEqual(port.requests.at(-1), { op: "upload_cancel", upload: ID });
  upload.receive({ op: "upload_ack", upload: ID, offset: 10 });
  await settle();
  assert.equal(port.frames.length, 1);
});
