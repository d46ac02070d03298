import Foundation
import StatecastTransport

/// Hands a cookie that a store decided on (a sign-in) to the browser as an `HttpOnly`
/// `Set-Cookie`, in answer to a same-origin `POST` of the page.
///
/// Why it exists: a WebSocket cannot set a cookie once it is open, and a cookie a page's
/// script writes (`document.cookie`) cannot be `HttpOnly`: every script of the host
/// (cookies ignore ports) could read it and connect as that person. So the store asks
/// for a ticket (128 random bits, good once, for a minute) and shows it in its view;
/// the page posts it to ``path`` in the ``ticketHeader`` header, and the answer sets the
/// cookie. The transport answers only a `POST` whose `Origin` is the server's own, and
/// the custom header makes any other origin's request need a CORS preflight, which
/// nothing here grants.
///
/// ```swift
/// let handoff = CookieHandoff()
/// configuration.cookieHandoff = handoff
/// // In a reducer's dependency: the view shows the ticket, never the cookie.
/// state.ticket = handoff.ticket(name: "sid", value: signed, maxAge: .seconds(86_400), secure: false)
/// // In the page: fetch("/statecast/cookie", {method: "POST", headers: {"X-Statecast-Ticket": ticket}})
/// ```
public final class CookieHandoff: Sendable {

  /// Where the page posts its ticket.
  public static let path = "/statecast/cookie"
  /// The request header that carries the ticket.
  public static let ticketHeader = "X-Statecast-Ticket"
  /// How long a ticket can be claimed.
  static let ticketLifetime = Duration.seconds(60)
  /// The most tickets waiting at once; the oldest are dropped beyond.
  static let maxWaiting = 10_000

  private struct Waiting: Sendable {
    var setCookie: String
    var expires: ContinuousClock.Instant
  }

  /// Tickets not yet claimed, by ticket. A ``Locked`` (an NSLock, not a `Mutex`: claims
  /// run on the transport's service thread, where ThreadSanitizer misreads `Mutex`).
  private let tickets = Locked([String: Waiting]())

  public init() {}

  /// A ticket that, posted once to ``path`` within a minute, sets the cookie `name` to
  /// `value` for `maxAge`: `HttpOnly`, `SameSite=Lax`, `Path=/`, and `Secure` when
  /// `secure`. Any thread.
  public func ticket(name: String, value: String, maxAge: Duration, secure: Bool) -> String {
    var generator = SystemRandomNumberGenerator()
    let ticket = ViewerCookie.base64url((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    var setCookie = "\(name)=\(value); Path=/; Max-Age=\(maxAge.components.seconds); HttpOnly; SameSite=Lax"
    if secure { setCookie += "; Secure" }
    let now = ContinuousClock.now
    tickets.withLock { tickets in
      tickets = tickets.filter { $0.value.expires > now }
      if tickets.count >= Self.maxWaiting,
        let oldest = tickets.min(by: { $0.value.expires < $1.value.expires })
      {
        tickets[oldest.key] = nil
      }
      tickets[ticket] = Waiting(setCookie: setCookie, expires: now + Self.ticketLifetime)
    }
    return ticket
  }

  /// The answer to a `POST` of ``path``: `204` with the ticket's `Set-Cookie`, or `403`
  /// for a ticket that is unknown, used or expired. Service thread.
  func answer(_ request: UpgradeHeaders) -> PostAnswer {
    guard let ticket = request.header(Self.ticketHeader) else {
      return PostAnswer(status: 400, headers: [])
    }
    let now = ContinuousClock.now
    let claimed = tickets.withLock { $0.removeValue(forKey: ticket) }
    guard let claimed, claimed.expires > now else { return PostAnswer(status: 403, headers: []) }
    return PostAnswer(status: 204, headers: ["Set-Cookie: \(claimed.setCookie)"])
  }
}
