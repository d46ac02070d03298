/**
 * Shows the connection's state on the page: a class on `<html>` and a small banner.
 *
 * `<html>` always carries exactly one of `sc-connected`, `sc-connecting` and
 * `sc-disconnected`, so a page's CSS can react (dim stale content, disable buttons).
 * While not connected, a banner says "Connecting…" (first time) or "Reconnecting…"
 * and offers to retry at once. Kept thin: the state logic lives in the client.
 * @module
 */

const STATES = ["connected", "connecting", "disconnected"];

/**
 * @param {import("./client.js").Client} client
 * @param {any} document
 * @returns {() => void} removes the banner and the listener
 */
export function installConnectionIndicator(client, document) {
  const html = document.documentElement;
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

  const update = () => {
    const state = client.connectionState;
    for (const name of STATES) {
      const on = name === state;
      if (html.classList.contains(`sc-${name}`) !== on) html.classList.toggle(`sc-${name}`, on);
    }
    banner.hidden = state === "connected";
    label.textContent = client.everConnected ? "Reconnecting…" : "Connecting…";
    retry.hidden = state !== "disconnected";
  };
  const stop = client.on("connectionstatechange", update);
  update();
  return () => {
    stop();
    banner.remove();
  };
}
