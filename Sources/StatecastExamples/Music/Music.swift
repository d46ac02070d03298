public import Statecast

/// A music app's deep links, resolved by rules: the example of Sundell's "rule-based
/// logic".
///
/// What it shows: instead of one large `switch` over URL shapes, each kind of link is a
/// ``Rule`` value that states what it requires (path shape, integer ids, a `song` query
/// item) and how it evaluates (looking the ids up in the catalogue); rules are grouped
/// by the link's second path component in a ``RuleSet`` and the first match wins, with
/// a not-found rule as the fallback. Every rule is tested alone.
///
/// | link | screen |
/// |---|---|
/// | `/music` | home: the artists |
/// | `/music/artist/42` | the artist, no song selected |
/// | `/music/artist/42?song=7` | the artist with song 7 selected (an unknown song opens the artist alone) |
/// | `/music/album/9` | the album |
/// | anything else, unknown ids | not found |
///
/// ## View (JSON)
/// ```json
/// {"screen": "artist",                    // "home" | "artist" | "album" | "notFound"
///  "path": "/music/artist/42?song=7",     // canonical, for the address bar
///  "title": "Ada and the Lovelaces",
///  "homePath": "/music",
///  "artists": [{"id": 42, "name": "…", "path": "/music/artist/42"}],          // home only
///  "artist": {"id": 42, "name": "…", "path": "/music/artist/42",              // artist only
///             "albums": [{"id": 9, "title": "…", "year": 2019, "path": "/music/album/9"}],
///             "songs": [{"id": 7, "title": "…", "duration": "3:41", "path": "/music/artist/42?song=7", "isSelected": true}]},
///  "song": {"id": 7, "title": "…", "duration": "3:41", "album": "…", "albumPath": "/music/album/9"},  // selected song only
///  "album": {"id": 9, "title": "…", "year": 2019, "path": "/music/album/9",   // album only
///            "artist": "…", "artistPath": "/music/artist/42",
///            "songs": [{"id": 7, "title": "…", "duration": "3:41", "path": "/music/artist/42?song=7", "isSelected": false}]},
///  "requestedPath": "/music/nowhere"}     // notFound only
/// ```
///
/// ## Client actions
/// `{"open":{"path":"/music/album/9"}}`: the full path and query, sent when the page
/// loads and on every in-page navigation.
public enum Music: Feature {
  /// The whole state of one browser's music app.
  public struct State: Equatable, Sendable {
    /// The catalogue the links point into.
    public var catalogue: MusicCatalogue
    /// The screen shown.
    public var screen: Screen

    public init(catalogue: MusicCatalogue, screen: Screen = .home) {
      self.catalogue = catalogue
      self.screen = screen
    }
  }

  /// The screens of the app, as resolved from a link.
  public enum Screen: Equatable, Sendable {
    case home
    case artist(id: Int, selectedSong: Int?)
    case album(id: Int)
    /// No rule matched; `path` is the canonical form of the link asked for.
    case notFound(path: String)

    /// The canonical link of this screen, for the address bar and for sharing.
    public var path: String {
      switch self {
      case .home: "/music"
      case .artist(let id, nil): "/music/artist/\(id)"
      case .artist(let id, let song?): "/music/artist/\(id)?song=\(song)"
      case .album(let id): "/music/album/\(id)"
      case .notFound(let path): path
      }
    }
  }

  /// Everything that can happen; all of it comes from the browser.
  public enum Action: Equatable, Sendable {
    case client(ClientAction)
  }

  /// What a browser may send, decoded from `{"open":{"path":"/music/album/9"}}`.
  public enum ClientAction: Codable, Equatable, Sendable {
    /// Open the screen of a link (path plus query).
    case open(path: String)
  }
}

extension Music {
  /// Browser actions enter the store as `.client`, beside the actions only the server sends.
  public static func embed(_ action: ClientAction) -> Action { .client(action) }
}
