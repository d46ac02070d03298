extension Music {
  /// What a browser sees of the music app (see ``Music`` for the JSON).
  public struct ViewState: Encodable, Equatable, Sendable {
    public var screen: String
    public var path: String
    public var title: String
    public var homePath: String
    public var artists: [ArtistRow]?
    public var artist: ArtistPage?
    public var song: SongDetail?
    public var album: AlbumPage?
    public var requestedPath: String?
  }

  /// An artist in the home list.
  public struct ArtistRow: Encodable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var path: String
  }

  /// The artist screen.
  public struct ArtistPage: Encodable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var path: String
    public var albums: [AlbumRow]
    public var songs: [SongRow]
  }

  /// An album in an artist's list.
  public struct AlbumRow: Encodable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var year: Int
    public var path: String
  }

  /// A song in a list; its link opens its artist with it selected.
  public struct SongRow: Encodable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var duration: String
    public var path: String
    public var isSelected: Bool
  }

  /// The selected song of the artist screen.
  public struct SongDetail: Encodable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var duration: String
    public var album: String
    public var albumPath: String
  }

  /// The album screen.
  public struct AlbumPage: Encodable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var year: Int
    public var path: String
    public var artist: String
    public var artistPath: String
    public var songs: [SongRow]
  }

  /// Projects the state onto what the page shows, links included, so the page never
  /// builds a URL itself.
  public static func viewState(_ state: State) -> ViewState {
    let catalogue = state.catalogue
    let screen = state.screen
    var view = ViewState(screen: "", path: screen.path, title: "", homePath: Screen.home.path)
    func songRow(_ song: MusicCatalogue.Song, selected: Int?) -> SongRow {
      SongRow(
        id: song.id, title: song.title, duration: duration(song.seconds),
        path: Screen.artist(id: song.artistID, selectedSong: song.id).path, isSelected: song.id == selected)
    }
    switch screen {
    case .home:
      view.screen = "home"
      view.title = "Artists"
      view.artists = catalogue.artists.map {
        ArtistRow(id: $0.id, name: $0.name, path: Screen.artist(id: $0.id, selectedSong: nil).path)
      }
    case .artist(let id, let selected):
      guard let artist = catalogue.artist(id: id) else { return notFound(view, path: screen.path) }
      view.screen = "artist"
      view.title = artist.name
      view.artist = ArtistPage(
        id: artist.id, name: artist.name, path: Screen.artist(id: artist.id, selectedSong: nil).path,
        albums: catalogue.albums(byArtist: id).map {
          AlbumRow(id: $0.id, title: $0.title, year: $0.year, path: Screen.album(id: $0.id).path)
        },
        songs: catalogue.songs(byArtist: id).map { songRow($0, selected: selected) })
      if let song = selected.flatMap(catalogue.song(id:)) {
        view.song = SongDetail(
          id: song.id, title: song.title, duration: duration(song.seconds),
          album: catalogue.album(id: song.albumID)?.title ?? "",
          albumPath: Screen.album(id: song.albumID).path)
      }
    case .album(let id):
      guard let album = catalogue.album(id: id) else { return notFound(view, path: screen.path) }
      view.screen = "album"
      view.title = album.title
      view.album = AlbumPage(
        id: album.id, title: album.title, year: album.year, path: screen.path,
        artist: catalogue.artist(id: album.artistID)?.name ?? "",
        artistPath: Screen.artist(id: album.artistID, selectedSong: nil).path,
        songs: catalogue.songs(onAlbum: id).map { songRow($0, selected: nil) })
    case .notFound(let path):
      return notFound(view, path: path)
    }
    return view
  }

  private static func notFound(_ view: ViewState, path: String) -> ViewState {
    var view = view
    view.screen = "notFound"
    view.title = "Not found"
    view.path = path
    view.requestedPath = path
    return view
  }

  /// `m:ss`, e.g. `3:41`.
  static func duration(_ seconds: Int) -> String {
    let rest = seconds % 60
    return "\(seconds / 60):\(rest < 10 ? "0" : "")\(rest)"
  }
}
