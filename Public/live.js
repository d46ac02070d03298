// The live chart demo's hooks: plain canvas drawing, toasts, and a log of what each
// hook was told (kept in sessionStorage, so it survives a navigation away).
import { statecast } from "/statecast.js";

const LOG_KEY = "statecast-live-hook-log";
const logList = document.getElementById("hook-log");

/** @param {string} line */
function log(line) {
  const lines = JSON.parse(sessionStorage.getItem(LOG_KEY) ?? "[]");
  lines.push(line);
  sessionStorage.setItem(LOG_KEY, JSON.stringify(lines.slice(-200)));
  const item = document.createElement("li");
  item.textContent = line;
  logList?.append(item);
}

/** Draws `samples` (0 to 100) as a line filling the canvas. */
function draw(canvas, samples, color = "#4f46e5") {
  const context = canvas.getContext("2d");
  const { width, height } = canvas;
  context.clearRect(0, 0, width, height);
  if (!Array.isArray(samples) || samples.length < 2) return;
  context.strokeStyle = "#e4e4e7";
  context.lineWidth = 1;
  for (const level of [25, 50, 75]) {
    const y = height - (level / 100) * height;
    context.beginPath();
    context.moveTo(0, y);
    context.lineTo(width, y);
    context.stroke();
  }
  context.strokeStyle = color;
  context.lineWidth = 2;
  context.beginPath();
  samples.forEach((value, index) => {
    const x = (index / (samples.length - 1)) * width;
    const y = height - (Math.max(0, Math.min(100, value)) / 100) * height;
    if (index === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  });
  context.stroke();
}

statecast.hook("chart", {
  mounted() {
    log(`mounted chart ${this.el.id}`);
    draw(this.el, this.value);
  },
  updated() {
    // Logged once: the chart is told of every reading.
    if (this.el.dataset.updates === undefined) log(`updated chart ${this.el.id}`);
    this.el.dataset.updates = String(Number(this.el.dataset.updates ?? 0) + 1);
    draw(this.el, this.value);
  },
  destroyed() {
    log(`destroyed chart ${this.el.id}`);
  },
});

// A mark's hook gets its whole row: `{ id, tick, value }`.
statecast.hook("mark", {
  mounted() {
    log(`mounted mark ${this.value.id}`);
    const context = this.el.getContext("2d");
    context.fillStyle = "#4f46e5";
    context.fillRect(0, 0, (Number(this.value.value) / 100) * this.el.width, this.el.height);
  },
  updated() {
    log(`updated mark ${this.value.id}`);
  },
  destroyed() {
    log(`destroyed mark ${this.value.id}`);
  },
});

statecast.hook("toasts", {
  mounted() {
    log("mounted toasts");
    this.handleEvent("toast", (payload) => {
      const toast = document.createElement("div");
      toast.className = "toast";
      toast.setAttribute("role", "status");
      toast.textContent = String(payload?.text ?? "");
      this.el.append(toast);
      setTimeout(() => toast.remove(), 4000);
    });
  },
  destroyed() {
    log("destroyed toasts");
  },
});

const slot = document.getElementById("widget-slot");
const toggle = document.getElementById("widget-toggle");
/** @type {(() => void) | null} */
let unbind = null;
toggle.addEventListener("click", () => {
  if (unbind) {
    unbind();
    unbind = null;
    slot.replaceChildren();
    toggle.textContent = "Open";
    return;
  }
  slot.append(document.getElementById("widget").content.cloneNode(true));
  unbind = statecast.bind(slot);
  toggle.textContent = "Close";
});
