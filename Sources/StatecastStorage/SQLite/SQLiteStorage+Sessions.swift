import Foundation
import GRDB
import StatecastJSON

extension SQLiteStorage {
  public func saveSessions(_ sessions: [StoredSession]) async throws {
    guard !sessions.isEmpty else { return }
    let time = currentTime
    let rows = try sessions.map { session in
      (
        session.id,
        try JSONValueEncoder().encode(StoredSessionRecord(viewer: session.viewer, topics: session.topics))
          .storedData
      )
    }
    try await access {
      try await database.write { db in
        for (id, topics) in rows {
          try db.execute(
            sql: "INSERT OR REPLACE INTO session (id, savedAt, topics) VALUES (?, ?, ?)",
            arguments: [id, time, topics]
          )
        }
      }
    }
  }

  public func loadSession(_ id: String) async throws -> StoredSession? {
    let row = try await access {
      try await database.read { db in
        try Row.fetchOne(db, sql: "SELECT savedAt, topics FROM session WHERE id = ?", arguments: [id])
          .map { row -> (savedAt: Double, topics: Data) in (row["savedAt"], row["topics"]) }
      }
    }
    guard let row else { return nil }
    do {
      let record = try JSONValueDecoder().decode(StoredSessionRecord.self, from: JSON(storedData: row.topics))
      return StoredSession(
        id: id, viewer: record.viewer, topics: record.topics,
        savedAt: Date(timeIntervalSince1970: row.savedAt))
    } catch {
      throw StorageError.databaseFailed(reason: "session \(id) does not decode: \(error)")
    }
  }

  public func deleteSession(_ id: String) async throws {
    try await access {
      try await database.write { db in
        try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
      }
    }
  }

  public func deleteSessions(unusedFor age: Duration) async throws -> Int {
    let cutoff = currentTime - age.seconds
    return try await access {
      try await database.write { db in
        try db.execute(sql: "DELETE FROM session WHERE savedAt < ?", arguments: [cutoff])
        return db.changesCount
      }
    }
  }
}
