import Foundation
import Logging
import StatecastJSON
import StatecastPostgres
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(1))) struct PostgresBackplaneTests {
  @Test func nodeIdsAreSixteenHexCharactersAndABadURLIsRefused() throws {
    let cluster = try PostgresCluster(url: "postgres://u:p@127.0.0.1:1/db", logger: .init(label: "t"))
    #expect(cluster.node.count == 16)
    #expect(cluster.node.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(cluster.backplane.node == cluster.node)
    #expect(cluster.storage.node == cluster.node)
    for bad in ["http://u@h/db", "postgres://h/db", "postgres://u@h", "not a url", "postgres://u@h:99999/db"]
    {
      #expect(throws: PostgresClusterError.self) { try PostgresCluster(url: bad, logger: .init(label: "t")) }
    }
  }

  /// A lease is held, renewed and released by one node; it expires by the database's
  /// clock, and another node takes it over then.
  @Test func leasesAreAcquiredRenewedExpiredAndReleased() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { first in
      try await withCluster(url) { second in
        let (a, b) = (first.backplane, second.backplane)
        #expect(try await a.leaseHolder(room: "r") == nil)
        #expect(try await a.acquireLease(room: "r", ttl: .seconds(2)) == a.node)
        #expect(try await b.acquireLease(room: "r", ttl: .seconds(30)) == a.node)
        #expect(try await b.leaseHolder(room: "r") == a.node)
        #expect(try await a.renewLeases(["r", "never"], ttl: .seconds(2)) == ["never"])
        // Releasing another node's lease does nothing.
        try await b.releaseLease(room: "r")
        #expect(try await b.leaseHolder(room: "r") == a.node)

        #expect(try await eventually { try await b.leaseHolder(room: "r") == nil })
        #expect(try await b.acquireLease(room: "r", ttl: .seconds(30)) == b.node)
        #expect(try await a.renewLeases(["r"], ttl: .seconds(30)) == ["r"])
        #expect(try await a.acquireLease(room: "r", ttl: .seconds(30)) == b.node)

        try await b.releaseLease(room: "r")
        #expect(try await a.leaseHolder(room: "r") == nil)
        #expect(try await a.acquireLease(room: "r", ttl: .seconds(30)) == a.node)
      }
    }
  }

  @Test func heartbeatsShowTheNodesAlive() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { first in
      try await withCluster(url) { second in
        let alone = try await first.backplane.heartbeat(ttl: .seconds(2))
        #expect(alone == [first.node])
        let both = try await second.backplane.heartbeat(ttl: .seconds(30))
        #expect(both == [first.node, second.node])
        let firstExpired = try await eventually {
          try await second.backplane.heartbeat(ttl: .seconds(30)) == [second.node]
        }
        #expect(firstExpired)
      }
    }
  }

  /// Messages arrive in the order they were sent, a payload far larger than a
  /// notification allows among them.
  @Test func messagesArriveInOrderWhateverTheirSize() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { first in
      try await withCluster(url) { second in
        let large = String(repeating: "ü0123456789", count: 2_000)
        var sent: [String] = []
        for index in 0..<200 {
          let payload = index % 50 == 7 ? "\(index) \(large)" : "#\(index) {\"n\":\(index)}"
          sent.append(payload)
          try await first.backplane.send(payload, to: second.node)
        }
        var inbox = second.backplane.inbox.makeAsyncIterator()
        for payload in sent {
          let event = await inbox.next()
          #expect(event == .message(payload))
          if event != .message(payload) { break }
        }
        try await second.backplane.send("back", to: first.node)
        var firstInbox = first.backplane.inbox.makeAsyncIterator()
        let back = await firstInbox.next()
        #expect(back == .message("back"))
      }
    }
    #expect(try await ThrowawayPostgres.count("SELECT count(*) FROM statecast_messages", on: url) == 0)
  }

  /// When PostgreSQL restarts, the listener connects again by itself, says that
  /// messages may have been lost, and delivers what is sent afterwards.
  @Test func aRestartedServerInterruptsTheInboxAndDeliveryResumes() async throws {
    let server = try await ThrowawayPostgres.startServer()
    defer { try? ThrowawayPostgres.stopServer(server.directory) }
    try await withCluster(server.url) { first in
      try await withCluster(server.url) { second in
        var inbox = second.backplane.inbox.makeAsyncIterator()
        try await first.backplane.send("before", to: second.node)
        let before = await inbox.next()
        #expect(before == .message("before"))

        try await ThrowawayPostgres.restartServer(server.directory)
        let interruption = await inbox.next()
        #expect(interruption == .interrupted)

        // The sender's connection was cut too: the first send after a restart may fail.
        let resumed = try await eventually {
          (try? await first.backplane.send("after", to: second.node)) != nil
        }
        #expect(resumed)
        let after = await inbox.next()
        #expect(after == .message("after"))
        // The pools replace their dropped connections too.
        #expect(try await eventually { (try? await first.storage.createRoom("r", state: ["n": 0])) != nil })
        #expect(try await second.storage.loadRoom("r") != nil)
      }
    }
  }
}
