package import StatecastTransport

/// The browser runtime, compiled into the server: `/statecast.js`, `/statecast.css`, the
/// debug panel (`/statecast/debug.js`) and the early snippet (`/statecast/early.js`),
/// served at those paths with an ETag whatever the app's public directory holds.
///
/// Why in the binary: an app's folder then holds only its own pages, a page can never
/// run a runtime of another version than its server, and there is nothing to copy on an
/// upgrade or a deploy. A page needs one line, first in its `<head>`:
///
/// ```html
/// <script src="/statecast/early.js"></script>
/// ```
///
/// The sources are the modules under `Runtime/`; `node Tests/JS/support/bundle.js
/// --write` generates `BrowserRuntime+Files.swift` from them.
package enum BrowserRuntime {
  /// The runtime's files, as the transport serves them.
  package static let files: [EmbeddedFile] = sources.map {
    EmbeddedFile(path: $0.path, contentType: $0.contentType, text: $0.text)
  }
}
