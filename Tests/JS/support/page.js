/**
 * A page under test: a fake document and window, a client on a fake network, the
 * binder, and helpers to answer as the server would.
 */
import { Binder } from "../../../Runtime/statecast/bindings/binder.js";
import { Client } from "../../../Runtime/statecast/client.js";
import { Document, FakeEvent, FakeWindow, html } from "./dom.js";
import { FakeNetwork } from "./fake-websocket.js";
import { ManualTimers, settle } from "./manual-timers.js";

export class TestPage {
  /**
   * @param {string} markup
   * @param {{ href?: string }} [options]
   */
  constructor(markup, options = {}) {
    this.document = new Document();
    this.window = new FakeWindow(options.href);
    this.network = new FakeNetwork();
    this.timers = new ManualTimers();
    this.client = new Client({
      url: "ws://example.test/ws",
      WebSocket: this.network.WebSocket,
      setTimeout: this.timers.setTimeout,
      clearTimeout: this.timers.clearTimeout,
      random: () => 0.5,
    });
    /** Events the bindings dispatched: [type, element, detail]. */
    this.dispatched = [];
    this.binder = new Binder(this.client, {
      document: this.document,
      window: this.window,
      setTimeout: this.timers.setTimeout,
      clearTimeout: this.timers.clearTimeout,
      dispatch: (element, type, detail) => {
        this.dispatched.push([type, element, detail]);
        element.dispatchEvent(new FakeEvent(type, { detail }));
      },
    });
    this.root = html(markup, this.document);
  }

  /** Binds the document and connects; returns the socket. */
  async start(session = "s1") {
    this.unbind = this.binder.bind(this.document);
    this.client.start();
    this.socket.hello(session);
    await settle();
    return this.socket;
  }

  get socket() {
    return this.network.socket;
  }

  /** Answers the pending join of `topic` with a snapshot and ok. */
  async snapshot(topic, state, rev = 1) {
    const join = this.socket.sentOps("join").findLast((message) => message.topic === topic);
    if (!join) throw new Error(`no join of ${topic} was sent`);
    this.socket.serverSend({ op: "snapshot", topic, rev, state });
    this.socket.ok(join);
    await settle();
  }

  /** Sends a patch with the topic's next revision. */
  patch(topic, ops) {
    const current = this.client.topics.get(topic);
    this.socket.serverSend({ op: "patch", topic, rev: current.rev + 1, ops });
  }

  /** @param {string} selector */
  $(selector) {
    return this.document.body.querySelector(selector);
  }

  /** @param {string} selector */
  $$(selector) {
    return this.document.body.querySelectorAll(selector);
  }
}

export { FakeEvent, settle };
