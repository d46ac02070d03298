/// The artists, albums and songs that music links point into; small and in memory.
///
/// ```swift
/// MusicCatalogue.sample.artist(id: 42)?.name  // "Ada and the Lovelaces"
/// ```
public struct MusicCatalogue: Equatable, Sendable {
  public struct Artist: Equatable, Sendable, Identifiable {
    public var id: Int
    public var name: String
    public init(id: Int, name: String) {
      self.id = id
      self.name = name
    }
  }

  public struct Album: Equatable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var year: Int
    public var artistID: Int
    public init(id: Int, title: String, year: Int, artistID: Int) {
      self.id = id
      self.title = title
      self.year = year
      self.artistID = artistID
    }
  }

  public struct Song: Equatable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var seconds: Int
    public var albumID: Int
    public var artistID: Int
    public init(id: Int, title: String, seconds: Int, albumID: Int, artistID: Int) {
      self.id = id
      self.title = title
      self.seconds = seconds
      self.albumID = albumID
      self.artistID = artistID
    }
  }

  public var artists: [Artist]
  public var albums: [Album]
  public var songs: [Song]

  public init(artists: [Artist], albums: [Album], songs: [Song]) {
    self.artists = artists
    self.albums = albums
    self.songs = songs
  }

  public func artist(id: Int) -> Artist? { artists.first { $0.id == id } }
  public func album(id: Int) -> Album? { albums.first { $0.id == id } }
  public func song(id: Int) -> Song? { songs.first { $0.id == id } }
  public func albums(byArtist artistID: Int) -> [Album] { albums.filter { $0.artistID == artistID } }
  public func songs(byArtist artistID: Int) -> [Song] { songs.filter { $0.artistID == artistID } }
  public func songs(onAlbum albumID: Int) -> [Song] { songs.filter { $0.albumID == albumID } }

  /// The demo's catalogue; `/music/artist/42?song=7` and `/music/album/9` resolve in it.
  public static let sample = MusicCatalogue(
    artists: [
      Artist(id: 42, name: "Ada and the Lovelaces"),
      Artist(id: 17, name: "The Hoppers"),
      Artist(id: 5, name: "Turing Complete"),
    ],
    albums: [
      Album(id: 9, title: "Analytical Engine", year: 2019, artistID: 42),
      Album(id: 10, title: "Notes by the Translator", year: 2022, artistID: 42),
      Album(id: 3, title: "Compiler", year: 2017, artistID: 17),
      Album(id: 4, title: "Halting Problem", year: 2021, artistID: 5),
    ],
    songs: [
      Song(id: 7, title: "Bernoulli Numbers", seconds: 221, albumID: 9, artistID: 42),
      Song(id: 8, title: "Punched Cards", seconds: 187, albumID: 9, artistID: 42),
      Song(id: 11, title: "Note G", seconds: 254, albumID: 10, artistID: 42),
      Song(id: 12, title: "Poetical Science", seconds: 199, albumID: 10, artistID: 42),
      Song(id: 1, title: "A Nanosecond Long", seconds: 176, albumID: 3, artistID: 17),
      Song(id: 2, title: "The Moth in Relay 70", seconds: 205, albumID: 3, artistID: 17),
      Song(id: 3, title: "Enigma", seconds: 243, albumID: 4, artistID: 5),
      Song(id: 4, title: "The Imitation Game", seconds: 232, albumID: 4, artistID: 5),
    ]
  )
}
