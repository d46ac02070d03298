/// The answer to a `GET` of a rendered page (see ``TransportConfiguration/pageRoute``):
/// a status, a body, and whole header lines besides `Content-Type`.
package struct PageAnswer: Sendable {
  package var status: Int
  package var contentType: String
  package var body: [UInt8]
  /// `Cache-Control` of the response: a rendered page is private to the session it opened.
  package var cacheControl: String
  package var headers: [String]

  package init(
    status: Int, contentType: String = "text/html; charset=utf-8", body: [UInt8],
    cacheControl: String = "private, no-store", headers: [String] = []
  ) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.cacheControl = cacheControl
    self.headers = headers
  }
}

/// Renders a page for a `GET` of one of ``TransportConfiguration/pagePaths`` (or an app
/// page), given the request's headers. Runs in a task, off the service thread: it may
/// open stores and wait for them; the service thread answers the request when it is
/// done, keeping serving every other connection meanwhile.
package typealias PageRoute = @Sendable (UpgradeHeaders) async -> PageAnswer
