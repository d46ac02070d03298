// The page's one line: <script src="/statecast/early.js"></script>, first in its <head>.
// Served by the server itself, at this fixed path, with the runtime of its own version.
// It loads the runtime (/statecast.css and the module /statecast.js) and, meanwhile,
// opens the page's socket and joins the page's topics as soon as the socket is open and
// the document parsed; statecast.js takes the socket over (docs/RUNTIME.md, "Live
// sooner"). A plain script in ES5, run before anything else of the page.
(function () {
  var here = document.currentScript;
  if (here && here.parentNode) {
    var style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = "/statecast.css";
    // Styles before the first paint, as a stylesheet the parser met would be.
    style.setAttribute("blocking", "render");
    var runtime = document.createElement("script");
    runtime.type = "module";
    runtime.src = "/statecast.js";
    here.parentNode.insertBefore(runtime, here.nextSibling);
    here.parentNode.insertBefore(style, here.nextSibling);
  }
  // The topic a data-sc-topic value names here, as topic-name.js resolves it:
  // "counter/{query.room}" with ?room=team is "counter/team", "{path.2}" the second
  // segment of the path, "{browser}" this browser's id in localStorage, "{query.room|lobby}"
  // falls back to "lobby"; a segment whose placeholder has no value is left out.
  function topicName(template) {
    if (template.indexOf("{") < 0) return template;
    var query = new URLSearchParams(location.search);
    var parts = location.pathname.split("/").slice(1);
    var kept = [];
    var segments = template.split("/");
    for (var i = 0; i < segments.length; i++) {
      var missing = false;
      var segment = segments[i].replace(/\{(?:(query|path)\.([^{}|]+)(?:\|([^{}]*))?|(browser))\}/g, function (_, source, key, fallback, browser) {
        var value = browser ? browserID() : source == "query" ? query.get(key) : parts[Number(key) - 1];
        if ((value == null || value === "") && fallback) return fallback;
        if (value == null || value === "") {
          missing = true;
          return "";
        }
        if (source == "path") {
          try {
            value = decodeURIComponent(value);
          } catch (x) {
            missing = true;
          }
        }
        return value;
      });
      if (!missing) kept.push(segment);
    }
    return kept.join("/");
  }
  function browserID() {
    try {
      var id = localStorage.getItem("statecast.browser");
      if (!id || !/^[0-9a-f]{32}$/.test(id)) {
        var bytes = new Uint8Array(16);
        crypto.getRandomValues(bytes);
        id = "";
        for (var i = 0; i < bytes.length; i++) id += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
        localStorage.setItem("statecast.browser", id);
      }
      return id;
    } catch (x) {
      return null;
    }
  }
  try {
    var early = { messages: [], joins: [], opened: false, closed: false };
    var socket = (early.socket = new WebSocket(
      (location.protocol == "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws",
      "statecast.v1"
    ));
    var join = function () {
      if (early.joined || !early.opened || document.readyState == "loading" || window.statecastEarlySocket !== early) return;
      early.joined = true;
      var roots, i, name, seen = {};
      try {
        // A page the server rendered resumes the session its request opened, from the
        // rendered revisions: its topics are joined already. The runtime adopts the answer.
        var rendered = document.querySelectorAll("script#statecast-page");
        if (rendered.length) {
          var page = JSON.parse(rendered[0].textContent), resume = {}, listed = 0;
          for (name in page.topics) {
            if (page.topics[name] && typeof page.topics[name].rev == "number") {
              resume[name] = page.topics[name].rev;
              listed++;
            }
          }
          if (typeof page.session == "string" && listed > 0) {
            early.hello = { ref: 1 };
            socket.send(JSON.stringify({ op: "hello", ref: 1, session: page.session, resume: resume }));
          }
          return;
        }
        roots = document.querySelectorAll("[data-sc-topic]:not([data-sc-params]):not([data-sc-topic] *)");
      } catch (x) {
        return;
      }
      for (i = 0; i < roots.length; i++) {
        name = topicName(roots[i].getAttribute("data-sc-topic"));
        if (name && !seen[name]) {
          seen[name] = 1;
          early.joins.push({ ref: early.joins.length + 1, topic: name });
          socket.send(JSON.stringify({ op: "join", ref: early.joins.length, topic: name, events: true }));
        }
      }
    };
    socket.onopen = function () {
      early.opened = true;
      join();
    };
    socket.onmessage = function (message) {
      early.messages.push(message.data);
    };
    socket.onclose = function () {
      early.closed = true;
    };
    document.addEventListener("readystatechange", join);
    window.statecastEarlySocket = early;
  } catch (x) {
    // No WebSocket: the runtime connects by itself.
  }
})();
