import Foundation
import StatecastClient
import StatecastJSON
import Testing

@testable import StatecastServer

/// Who is in a shared topic, shown to every member under `/presence`, over real sockets.
@Suite(.timeLimit(.minutes(1))) struct PresenceTests {
  func names(_ state: JSON?) -> [String] {
    guard case .array(let entries)? = state?["presence"] else { return [] }
    return entries.compactMap { $0["name"]?.stringValue }
  }

  func online(_ state: JSON?) -> [Bool] {
    guard case .array(let entries)? = state?["presence"] else { return [] }
    return entries.compactMap { entry in if case .bool(let online)? = entry["online"] { online } else { nil }
    }
  }

  @Test func membersSeeWhoIsThereOnlineReconnectingAndGone() async throws {
    let fixture = try ServerFixture.start { $0.sessionGracePeriod = .milliseconds(300) }
    let ada = try await fixture.connect()
    let bob = try await fixture.connect()
    let adaRoom = try await ada.join("room/p")
    #expect(names(adaRoom.state).count == 1)
    #expect(adaRoom.state?["count"] == 0)
    _ = try await bob.join("room/p")
    let both = await waitForState(adaRoom) { names($0).count == 2 }
    #expect(online(both) == [true, true])
    // Bob's socket drops: he is reconnecting, then gone when his session expires.
    bob.close()
    let reconnecting = await waitForState(adaRoom) { online($0) == [true, false] }
    #expect(reconnecting != nil)
    let gone = await waitForState(adaRoom) { names($0).count == 1 }
    #expect(online(gone) == [true])
    await fixture.stop()
  }

  @Test func publishedMetaReachesTheOthersAndIsBounded() async throws {
    let fixture = try ServerFixture.start()
    let ada = try await fixture.connect()
    let bob = try await fixture.connect()
    _ = try await ada.join("room/m")
    let bobRoom = try await bob.join("room/m")
    try await ada.setPresence(["editing": "item-3"], on: "room/m")
    let seen = await waitForState(bobRoom) { state in
      guard case .array(let entries)? = state["presence"] else { return false }
      return entries.contains { $0["meta"]?["editing"] == "item-3" }
    }
    #expect(seen != nil)
    // Presence is beside the store: the count did not move, no action ran.
    #expect(bobRoom.state?["count"] == 0)
    do {
      try await ada.setPresence(["note": .string(String(repeating: "x", count: 2_000))], on: "room/m")
      Issue.record("an oversized presence was accepted")
    } catch let error as StatecastError {
      #expect(error.code == "bad_message")
    }
    do {
      _ = try await ada.join("ticker")
      try await ada.setPresence(["editing": "x"], on: "ticker")
      Issue.record("a per-session topic accepted presence")
    } catch let error as StatecastError {
      #expect(error.code == "bad_message")
    }
    await fixture.stop()
  }

  @Test func eachViewerSeesOnlyTheirOwnView() async throws {
    let fixture = try ServerFixture.start()
    let ada = try await fixture.connect()
    let bob = try await fixture.connect()
    let adaNotes = try await ada.join("notes/1")
    let bobNotes = try await bob.join("notes/1")
    var bobStates: [JSON] = []
    let watching = Task {
      var seen: [JSON] = []
      for await state in bobNotes.states {
        seen.append(state)
        if case .array(let notes)? = state["notes"], notes.count == 2 { break }
      }
      return seen
    }
    try await ada.send(action: Notes.ClientAction.draft(text: "ada's secret draft"), to: "notes/1")
    #expect(adaNotes.state?["myDraft"] == "ada's secret draft")
    try await bob.send(action: Notes.ClientAction.draft(text: "bob's draft"), to: "notes/1")
    try await ada.send(action: Notes.ClientAction.post, to: "notes/1")
    try await bob.send(action: Notes.ClientAction.post, to: "notes/1")
    bobStates = await watching.value
    #expect(!bobStates.isEmpty)
    // Nothing of Ada's draft was in any state Bob's socket carried before she posted it.
    let beforePost = bobStates.prefix { state in
      guard case .array(let notes)? = state["notes"] else { return true }
      return notes.isEmpty
    }
    #expect(beforePost.allSatisfy { !$0.description.contains("ada's secret draft") })
    #expect(bobNotes.state?["notes"]?[0]?["author"] == adaNotes.state?["presence"]?[0]?["name"])
    #expect(bobNotes.state?["myDraft"] == "")
    await fixture.stop()
  }
}
