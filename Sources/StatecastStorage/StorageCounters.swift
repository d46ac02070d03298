/// Writes and journal entries made since the storage was opened. `commits` counts
/// transactions (each one fsync), `entries` the changes they carried: with group
/// commit, many entries share a commit.
public struct StorageCounters: Sendable, Equatable {
  public var commits: Int
  public var entries: Int

  public init(commits: Int = 0, entries: Int = 0) {
    self.commits = commits
    self.entries = entries
  }
}
