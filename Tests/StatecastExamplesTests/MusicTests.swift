import Foundation
import Statecast
import StatecastTesting
import Testing

@testable import StatecastExamples

@Suite("Music")
struct MusicTests {
  typealias Screen = Music.Screen
  typealias Rules = Music.Rules
  let catalogue = MusicCatalogue.sample

  // MARK: each rule alone

  @Test func homeRule() {
    #expect(Rules.home.evaluate(DeepLink("/music")) == .home)
    #expect(Rules.home.evaluate(DeepLink("/music/")) == .home)
    #expect(Rules.home.evaluate(DeepLink("/music/artist")) == nil)
    #expect(Rules.home.evaluate(DeepLink("/video")) == nil)
  }

  @Test func artistWithSongRule() {
    let rule = Rules.artistWithSong(in: catalogue)
    #expect(rule.evaluate(DeepLink("/music/artist/42?song=7")) == .artist(id: 42, selectedSong: 7))
    // Its requirements: an integer artist id and an integer song.
    #expect(
      rule.unmetRequirements(for: DeepLink("/music/artist/42")).map(\.name) == ["integer query item song"])
    #expect(
      rule.unmetRequirements(for: DeepLink("/music/artist/x?song=7")).map(\.name) == [
        "integer path component 2"
      ])
    // Its evaluation: the song must be one of the artist's.
    #expect(rule.accepts(DeepLink("/music/artist/42?song=3")))
    #expect(rule.evaluate(DeepLink("/music/artist/42?song=3")) == nil)
    #expect(rule.evaluate(DeepLink("/music/artist/42?song=999")) == nil)
    #expect(rule.evaluate(DeepLink("/music/artist/41?song=7")) == nil)
  }

  @Test func artistRule() {
    let rule = Rules.artist(in: catalogue)
    #expect(rule.evaluate(DeepLink("/music/artist/42")) == .artist(id: 42, selectedSong: nil))
    #expect(rule.evaluate(DeepLink("/music/artist/42?song=7")) == .artist(id: 42, selectedSong: nil))
    #expect(rule.evaluate(DeepLink("/music/artist/999")) == nil)
    #expect(rule.evaluate(DeepLink("/music/artist/42/extra")) == nil)
    #expect(rule.evaluate(DeepLink("/music/album/9")) == nil)
  }

  @Test func albumRule() {
    let rule = Rules.album(in: catalogue)
    #expect(rule.evaluate(DeepLink("/music/album/9")) == .album(id: 9))
    #expect(rule.evaluate(DeepLink("/music/album/99")) == nil)
    #expect(rule.evaluate(DeepLink("/music/album/-9")) == nil)
    #expect(rule.evaluate(DeepLink("/music/album")) == nil)
  }

  @Test func notFoundRule() {
    #expect(Rules.notFound.requirements.isEmpty)
    #expect(Rules.notFound.evaluate(DeepLink("/nowhere?b=2&a=1")) == .notFound(path: "/nowhere?a=1&b=2"))
  }

  // MARK: the set

  @Test func theRouterPicksTheFirstMatchingRuleOfTheLinksGroup() {
    let router = Rules.router(for: catalogue)
    func route(_ path: String) -> RuleMatch<Screen>? { router.match(DeepLink(path)) }
    #expect(route("/music") == RuleMatch(ruleName: "home", output: .home))
    #expect(
      route("/music/artist/42?song=7")
        == RuleMatch(ruleName: "artist with song", output: .artist(id: 42, selectedSong: 7)))
    #expect(
      route("/music/artist/42") == RuleMatch(ruleName: "artist", output: .artist(id: 42, selectedSong: nil)))
    #expect(
      route("/music/artist/42?song=3")
        == RuleMatch(ruleName: "artist", output: .artist(id: 42, selectedSong: nil)))
    #expect(route("/music/album/9") == RuleMatch(ruleName: "album", output: .album(id: 9)))
    #expect(
      route("/music/album/99") == RuleMatch(ruleName: "not found", output: .notFound(path: "/music/album/99"))
    )
    #expect(
      route("/music/playlist/1")
        == RuleMatch(ruleName: "not found", output: .notFound(path: "/music/playlist/1")))
    #expect(
      route("/video/artist/42")
        == RuleMatch(ruleName: "not found", output: .notFound(path: "/video/artist/42")))
    #expect(
      router.candidates(for: DeepLink("/music/artist/42")).map(\.name) == [
        "artist with song", "artist", "not found",
      ])
    #expect(router.candidates(for: DeepLink("/elsewhere")).map(\.name) == ["not found"])
  }

  @Test func canonicalPaths() {
    #expect(Screen.home.path == "/music")
    #expect(Screen.artist(id: 42, selectedSong: nil).path == "/music/artist/42")
    #expect(Screen.artist(id: 42, selectedSong: 7).path == "/music/artist/42?song=7")
    #expect(Screen.album(id: 9).path == "/music/album/9")
    // Every screen's path opens that same screen again.
    let router = Rules.router(for: catalogue)
    for screen in [
      Screen.home, .artist(id: 42, selectedSong: nil), .artist(id: 17, selectedSong: 2), .album(id: 4),
    ] {
      #expect(router.evaluate(DeepLink(screen.path)) == screen)
    }
  }

  // MARK: the feature

  @Test func openingLinks() async {
    let store = TestStore(
      initialState: Music.State(catalogue: catalogue),
      reducer: Music.reducer(dependencies: .live())
    )
    await store.send(.client(.open(path: "/music/artist/42?song=7"))) {
      $0.screen = .artist(id: 42, selectedSong: 7)
    }
    await store.send(.client(.open(path: "/music/album/9"))) { $0.screen = .album(id: 9) }
    await store.send(.client(.open(path: "https://example.com/music/artist/17#top"))) {
      $0.screen = .artist(id: 17, selectedSong: nil)
    }
    await store.send(.client(.open(path: "/music/artist/1234"))) {
      $0.screen = .notFound(path: "/music/artist/1234")
    }
    await store.send(.client(.open(path: "/music"))) { $0.screen = .home }
    await store.send(.client(.open(path: "/music/")))
    await store.finish()
  }

  @Test func homeView() {
    let view = Music.viewState(Music.State(catalogue: catalogue))
    #expect(
      view.screen == "home" && view.path == "/music" && view.title == "Artists" && view.homePath == "/music")
    #expect(view.artists?.map(\.path) == ["/music/artist/42", "/music/artist/17", "/music/artist/5"])
    #expect(view.artist == nil && view.album == nil && view.song == nil && view.requestedPath == nil)
  }

  @Test func artistView() throws {
    let view = Music.viewState(Music.State(catalogue: catalogue, screen: .artist(id: 42, selectedSong: 7)))
    #expect(
      view.screen == "artist" && view.path == "/music/artist/42?song=7"
        && view.title == "Ada and the Lovelaces")
    #expect(view.artist?.albums.map(\.path) == ["/music/album/9", "/music/album/10"])
    #expect(view.artist?.songs.filter(\.isSelected).map(\.id) == [7])
    #expect(view.artist?.songs.first?.path == "/music/artist/42?song=7")
    #expect(
      view.song
        == Music.SongDetail(
          id: 7, title: "Bernoulli Numbers", duration: "3:41", album: "Analytical Engine",
          albumPath: "/music/album/9"))
    #expect(view.artists == nil)

    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any]
    #expect(json?["screen"] as? String == "artist")
    #expect((json?["song"] as? [String: Any])?["id"] as? Int == 7)
    #expect(json?["album"] == nil && json?["artists"] == nil)
  }

  @Test func albumAndNotFoundViews() {
    let album = Music.viewState(Music.State(catalogue: catalogue, screen: .album(id: 9)))
    #expect(album.screen == "album" && album.path == "/music/album/9" && album.title == "Analytical Engine")
    #expect(album.album?.artist == "Ada and the Lovelaces" && album.album?.artistPath == "/music/artist/42")
    #expect(album.album?.songs.map(\.title) == ["Bernoulli Numbers", "Punched Cards"])
    #expect(album.album?.songs.map(\.duration) == ["3:41", "3:07"])

    let missing = Music.viewState(Music.State(catalogue: catalogue, screen: .notFound(path: "/music/x")))
    #expect(missing.screen == "notFound" && missing.path == "/music/x" && missing.requestedPath == "/music/x")
    #expect(missing.title == "Not found")
    // A screen whose id left the catalogue shows as not found rather than empty.
    let gone = Music.viewState(Music.State(catalogue: catalogue, screen: .album(id: 77)))
    #expect(gone.screen == "notFound" && gone.requestedPath == "/music/album/77")
  }

  @Test func theSampleCatalogueIsConsistent() {
    for song in catalogue.songs {
      #expect(catalogue.album(id: song.albumID)?.artistID == song.artistID)
    }
    #expect(Set(catalogue.songs.map(\.id)).count == catalogue.songs.count)
    #expect(Set(catalogue.albums.map(\.id)).count == catalogue.albums.count)
  }

  @Test func clientActionsDecodeFromTheWireForm() throws {
    let action = try JSONDecoder().decode(
      Music.ClientAction.self, from: Data(#"{"open":{"path":"/music/album/9"}}"#.utf8))
    #expect(action == .open(path: "/music/album/9"))
  }

  @Test func theLiveStoreOpensLinks() async {
    let store = await Music.makeStore(dependencies: .live(), join: Join())
    #expect(await store.state.screen == .home)
    await store.send(.client(.open(path: "/music/album/9")))
    #expect(await Music.viewState(store.state).path == "/music/album/9")
    await store.close()
  }

  @Test func aJoinNamingALinkStartsAtItsScreen() async {
    let link = Join(
      topic: "music", params: JoinParams(encoding: ["path": "/music/album/9", "query": "?song=2"]))
    let store = await Music.makeStore(dependencies: .live(), join: link)
    let opened = await Music.makeStore(dependencies: .live(), join: Join())
    await opened.send(.client(.open(path: "/music/album/9?song=2")))
    #expect(await store.state.screen != .home)
    #expect(await store.state.screen == opened.state.screen)
    // A query that is not a string is ignored; the path still opens.
    let oddQuery = JoinParams(encoding: OddLink(path: "/music/album/9", query: 3))
    let withoutQuery = await Music.makeStore(
      dependencies: .live(), join: Join(topic: "music", params: oddQuery))
    #expect(await withoutQuery.state.screen != .home)
    await withoutQuery.close()
    // A link outside the app, or params of another shape, leave the home screen.
    for params in [JoinParams(encoding: ["path": "/elsewhere"]), JoinParams(encoding: ["path": 7])] {
      let other = await Music.makeStore(dependencies: .live(), join: Join(topic: "music", params: params))
      #expect(await other.state.screen == .home)
      await other.close()
    }
    await store.close()
    await opened.close()
  }
}

/// Params whose query is a number.
private struct OddLink: Encodable, Sendable {
  var path: String
  var query: Int
}
