/**
 * Shows the connection's state on the page: a class on `<html>` and a small banner.
 *
 * `<html>` always carries exactly one of `sc-connected`, `sc-connecting` and
 * `sc-disconnected`, so a page's CSS can react (dim stale content, disable buttons), and
 * `sc-stale` once the page has not been connected for 0.4 s.
 * While not connected, a banner says "Connecting…" (first time) or "Reconnecting…"
 * and offers to retry at once. Kept thin: the state logic lives in the client.
 * @module
 */

const STATES = ["connected", "connecting", "disconnected"];

/**
 * How long the page may be without its connection before it looks stale (dimmed content,
 * the banner). A timer and a class, not a CSS transition delay: a page bound while its
 * socket is still being resumed would otherwise start a delayed transition of every
 * topic's opacity and filter, which the browser composites in layers of their own and
 * paints again, in the middle of the page's first frames.
 */
const STALE_AFTER_MS = 400;

/**
 * @param {import("./client.js").Client} client
 * @param {any} document
 * @returns {() => void} removes the banner and the listener
 */
export function installConnectionIndicator(client, document) {
  const html = document.documentElement;
  // The banner is made the first time it is needed: a page bound while its socket is
  // connected (a rendered page whose early socket resumed its session) adds nothing to
  // its body, which would otherwise be styled and laid out again as it becomes interactive.
  /** @type {{ banner: any, label: any, retry: any } | null} */
  let parts = null;
  /** @type {any} the pending timer that marks the page stale */
  let staleTimer = null;
  const make = () => {
    const banner = document.createElement("div");
    banner.className = "sc-banner";
    banner.setAttribute("role", "status");
    banner.setAttribute("aria-live", "polite");
    const label = document.createElement("span");
    const retry = document.createElement("button");
    retry.setAttribute("type", "button");
    retry.className = "sc-banner-retry";
    retry.textContent = "Retry now";
    retry.addEventListener("click", () => client.retryNow());
    banner.append(label, retry);
    document.body.appendChild(banner);
    return { banner, label, retry };
  };

  const update = () => {
    const state = client.connectionState;
    for (const name of STATES) {
      const on = name === state;
      if (html.classList.contains(`sc-${name}`) !== on) html.classList.toggle(`sc-${name}`, on);
    }
    if (state === "connected") {
      if (staleTimer !== null) clearTimeout(staleTimer);
      staleTimer = null;
      if (html.classList.contains("sc-stale")) html.classList.remove("sc-stale");
    } else if (staleTimer === null && !html.classList.contains("sc-stale")) {
      staleTimer = setTimeout(() => {
        staleTimer = null;
        if (client.connectionState !== "connected") html.classList.add("sc-stale");
      }, STALE_AFTER_MS);
    }
    if (parts === null && state === "connected") return;
    parts ??= make();
    parts.banner.hidden = state === "connected";
    parts.label.textContent = client.everConnected ? "Reconnecting…" : "Connecting…";
    parts.retry.hidden = state !== "disconnected";
  };
  const stop = client.on("connectionstatechange", update);
  update();
  return () => {
    stop();
    if (staleTimer !== null) clearTimeout(staleTimer);
    parts?.banner.remove();
  };
}
