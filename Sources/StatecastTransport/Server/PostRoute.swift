/// The answer to a `POST` of a ``TransportConfiguration/postRoutes`` path: a status and
/// whole header lines (`Set-Cookie: …`), with no body.
package struct PostAnswer: Sendable, Equatable {
  package var status: Int
  package var headers: [String]

  package init(status: Int, headers: [String]) {
    self.status = status
    self.headers = headers
  }
}

/// Answers a `POST` from the server's own pages, given the request's headers (as an
/// upgrade check sees them). Runs on the service thread: quick and non-blocking only.
///
/// The transport calls it only for a request whose `Origin` is the server's own (or an
/// allowed one), so a form or script of another site cannot make a browser post here;
/// any other method is answered 405.
package typealias PostRoute = @Sendable (UpgradeHeaders) -> PostAnswer
