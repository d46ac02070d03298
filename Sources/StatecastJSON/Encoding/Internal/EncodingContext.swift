/// What every encoder of one encoding pass shares: `userInfo`, and whether the pass
/// consults and fills a ``CacheNode`` tree (see ``JSONViewTracker``).
final class EncodingContext {
  let userInfo: [CodingUserInfoKey: Any]
  let isTracking: Bool

  init(userInfo: [CodingUserInfoKey: any Sendable], isTracking: Bool) {
    self.userInfo = userInfo
    self.isTracking = isTracking
  }
}
