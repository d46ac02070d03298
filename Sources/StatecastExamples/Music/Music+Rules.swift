public import Statecast

extension Music {
  /// The rules that turn a link into a screen, each its own value, testable alone.
  public enum Rules {
    /// `/music`: the home screen.
    public static let home = Rule<DeepLink, Screen>(
      "home", requires: [.pathComponents(["music"])]
    ) { _ in .home }

    /// `/music/artist/<id>?song=<id>`: the artist with one of their songs selected.
    public static func artistWithSong(in catalogue: MusicCatalogue) -> Rule<DeepLink, Screen> {
      Rule(
        "artist with song",
        requires: [
          .pathComponents(["music", "artist", nil]), .integerPathComponent(at: 2), .integerQueryItem("song"),
        ]
      ) { link in
        guard let artistID = link.integerPathComponent(at: 2), let songID = link.integerQueryItem("song"),
          catalogue.artist(id: artistID) != nil, catalogue.song(id: songID)?.artistID == artistID
        else { return nil }
        return .artist(id: artistID, selectedSong: songID)
      }
    }

    /// `/music/artist/<id>`: the artist (any query is dropped).
    public static func artist(in catalogue: MusicCatalogue) -> Rule<DeepLink, Screen> {
      Rule(
        "artist", requires: [.pathComponents(["music", "artist", nil]), .integerPathComponent(at: 2)]
      ) { link in
        guard let id = link.integerPathComponent(at: 2), catalogue.artist(id: id) != nil else { return nil }
        return .artist(id: id, selectedSong: nil)
      }
    }

    /// `/music/album/<id>`: the album.
    public static func album(in catalogue: MusicCatalogue) -> Rule<DeepLink, Screen> {
      Rule(
        "album", requires: [.pathComponents(["music", "album", nil]), .integerPathComponent(at: 2)]
      ) { link in
        guard let id = link.integerPathComponent(at: 2), catalogue.album(id: id) != nil else { return nil }
        return .album(id: id)
      }
    }

    /// Anything else: the not-found screen, showing the link asked for.
    public static let notFound = Rule<DeepLink, Screen>("not found") { link in .notFound(path: link.path) }

    /// All rules, grouped by the link's second path component (`artist`, `album`, or
    /// empty for `/music` itself); links outside `/music` reach only the fallback.
    public static func router(for catalogue: MusicCatalogue) -> RuleSet<String, DeepLink, Screen> {
      RuleSet(
        key: { link in
          guard link.pathComponents.first == "music" else { return nil }
          return link.pathComponents.count > 1 ? link.pathComponents[1] : ""
        },
        groups: [
          "": [home],
          "artist": [artistWithSong(in: catalogue), artist(in: catalogue)],
          "album": [album(in: catalogue)],
        ],
        fallback: [notFound]
      )
    }
  }
}
