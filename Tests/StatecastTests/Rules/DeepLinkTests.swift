import Statecast
import Testing

@Suite("DeepLink")
struct DeepLinkTests {
  @Test func parsesPathAndQuery() {
    let link = DeepLink("/music/artist/42?song=7")
    #expect(link.pathComponents == ["music", "artist", "42"])
    #expect(link.queryItems == ["song": "7"])
    #expect(link.integerPathComponent(at: 2) == 42)
    #expect(link.integerPathComponent(at: 1) == nil)
    #expect(link.integerPathComponent(at: 3) == nil)
    #expect(link.integerQueryItem("song") == 7)
    #expect(link.integerQueryItem("album") == nil)
  }

  @Test func ignoresSchemeHostFragmentAndEmptyComponents() {
    let link = DeepLink("https://example.com:8080//music///album/9/#tracks")
    #expect(link.pathComponents == ["music", "album", "9"])
    #expect(link.queryItems.isEmpty)
    #expect(DeepLink("http://example.com").pathComponents.isEmpty)
    #expect(DeepLink("http://example.com?x=1").queryItems == ["x": "1"])
  }

  @Test func decodesPercentEscapesAndPlusInQueries() {
    let link = DeepLink("/music/search/caf%C3%A9%20society?q=a+b%26c&flag&q=ignored")
    #expect(link.pathComponents == ["music", "search", "café society"])
    #expect(link.queryItems == ["q": "a b&c", "flag": ""])
    #expect(DeepLink("/a%2/b%zz").pathComponents == ["a%2", "b%zz"])
  }

  @Test func integersAreDecimalDigitsOnly() {
    #expect(DeepLink("/x/-3").integerPathComponent(at: 1) == nil)
    #expect(DeepLink("/x/+3").integerPathComponent(at: 1) == nil)
    #expect(DeepLink("/x/3a").integerPathComponent(at: 1) == nil)
    #expect(DeepLink("/x/99999999999999999999999").integerPathComponent(at: 1) == nil)
    #expect(DeepLink("/x/007").integerPathComponent(at: 1) == 7)
  }

  @Test func canonicalPathSortsQueryAndEncodes() {
    #expect(DeepLink("/music/artist/42?song=7").path == "/music/artist/42?song=7")
    #expect(DeepLink("music//artist/42/").path == "/music/artist/42")
    #expect(DeepLink("/").path == "/")
    #expect(DeepLink("/b?z=1&a=x%20y").path == "/b?a=x%20y&z=1")
    #expect(DeepLink(pathComponents: ["café", "a/b"]).path == "/caf%C3%A9/a%2Fb")
    let roundTrip = DeepLink(DeepLink(pathComponents: ["a b", "ü"], queryItems: ["k&": "v="]).path)
    #expect(roundTrip == DeepLink(pathComponents: ["a b", "ü"], queryItems: ["k&": "v="]))
  }

  @Test func requirements() {
    let link = DeepLink("/music/artist/42?song=7")
    #expect(Requirement.pathComponents(["music", "artist", nil]).isSatisfied(by: link))
    #expect(!Requirement.pathComponents(["music", "album", nil]).isSatisfied(by: link))
    #expect(!Requirement.pathComponents(["music", "artist"]).isSatisfied(by: link))
    #expect(Requirement.pathComponents(["music", "artist", nil]).name == "path /music/artist/*")
    #expect(Requirement.pathPrefix(["music"]).isSatisfied(by: link))
    #expect(!Requirement.pathPrefix(["video"]).isSatisfied(by: link))
    #expect(Requirement.integerPathComponent(at: 2).isSatisfied(by: link))
    #expect(!Requirement.integerPathComponent(at: 0).isSatisfied(by: link))
    #expect(Requirement.queryItem("song").isSatisfied(by: link))
    #expect(!Requirement.queryItem("album").isSatisfied(by: link))
    #expect(Requirement.integerQueryItem("song").isSatisfied(by: link))
    #expect(!Requirement.integerQueryItem("song").isSatisfied(by: DeepLink("/a?song=x")))
    #expect(Requirement.noQuery.isSatisfied(by: DeepLink("/music")))
    #expect(!Requirement.noQuery.isSatisfied(by: link))
  }
}
