import Testing

@testable import StatecastServer

/// Who runs a room, as a value: each change of hands a cluster goes through, event by
/// event, with the actions the room host carries out. No sockets, no database; the
/// store is a name.
struct RoomOwnershipTests {
  typealias Ownership = RoomOwnership<String>

  @Test func aFollowerWhoseOwnerStillRunsTheRoomKeepsFollowingIt() {
    var room = Ownership(.follower(owner: "a"))
    #expect(room.handle(.checkOwner) == [.lookUpOwner(current: "a")])
    #expect(room.state == .changingHands(from: "a"))
    #expect(room.followed == "a", "requests still go to the owner while it is asked about")
    #expect(room.handle(.checkOwner).isEmpty, "one check at a time")
    #expect(room.handle(.ownerUnchanged).isEmpty)
    #expect(room.state == .follower(owner: "a"))
  }

  @Test func aFollowerTakesTheRoomOverWhenNobodyRunsIt() {
    var room = Ownership(.follower(owner: "a"))
    _ = room.handle(.checkOwner)
    #expect(room.handle(.tookOver("store")) == [.announceTakeover, .abandonRequests(node: "a")])
    #expect(room.state == .owner("store"))
    #expect(room.isOwner)
    guard case .store("store") = room.target else {
      Issue.record("an owner's requests go to its store")
      return
    }
  }

  @Test func aFollowerFollowsTheRoomToItsNewOwner() {
    var room = Ownership(.follower(owner: "a"))
    _ = room.handle(.checkOwner)
    #expect(room.handle(.ownerIs("c")) == [.rejoinMembers(owner: "c"), .abandonRequests(node: "a")])
    #expect(room.state == .follower(owner: "c"))
    guard case .owner("c") = room.target else {
      Issue.record("a follower's requests go to the owner")
      return
    }
  }

  @Test func anOwnerThatLostItsLeaseClosesItsStoreAndFollowsTheNewHolder() {
    var room = Ownership(.owner("store"))
    #expect(room.handle(.checkOwner).isEmpty, "an owner has nobody to check")
    #expect(room.handle(.leaseLost) == [.closeStore("store"), .lookUpHolder])
    #expect(!room.isOwner, "its lease is not renewed any more")
    #expect(room.store == nil)
    #expect(room.handle(.ownerIs("b")) == [.rejoinMembers(owner: "b")])
    #expect(room.state == .follower(owner: "b"))
  }

  @Test func anOwnerThatLostItsLeaseToNobodyTakesItAgain() {
    var room = Ownership(.owner("old"))
    _ = room.handle(.leaseLost)
    #expect(room.handle(.ownerUnknown) == [.lookUpOwner(current: "")])
    #expect(room.handle(.tookOver("new")) == [.announceTakeover], "it followed no other process")
    #expect(room.state == .owner("new"))
  }

  @Test func requestsWhileTheRoomIsGivenUpWaitForItToSettle() {
    var room = Ownership(.owner("old"))
    _ = room.handle(.leaseLost)
    if case .store = room.target { Issue.record("a request while stepping down meets the closing store") }
    #expect(room.isHandingOver, "a request while stepping down waits")
    #expect(room.handle(.checkOwner).isEmpty, "the step-down looks the holder up already")
    _ = room.handle(.ownerUnknown)
    if case .owner = room.target { Issue.record("a request while the lease is asked for again goes nowhere") }
    #expect(room.isHandingOver, "a request while the lease is asked for again waits")
    _ = room.handle(.tookOver("new"))
    #expect(!room.isHandingOver)
    guard case .store("new") = room.target else {
      Issue.record("once the room is taken back, requests go to its new store")
      return
    }
  }

  @Test func aRoomGivenUpSettlesWithItsNewHolderOrClosesWithItsLastMember() {
    var followed = Ownership(.owner("store"))
    _ = followed.handle(.leaseLost)
    _ = followed.handle(.ownerUnknown)
    #expect(followed.handle(.ownerIs("b")) == [.rejoinMembers(owner: "b")], "another took it meanwhile")
    guard case .owner("b") = followed.target else {
      Issue.record("settled, requests go to the new holder")
      return
    }
    var unreachable = Ownership(.owner("store"))
    _ = unreachable.handle(.leaseLost)
    _ = unreachable.handle(.ownerUnknown)
    #expect(unreachable.handle(.ownerUnchanged).isEmpty)
    #expect(unreachable.state == .follower(owner: ""), "the lease was not taken: the next check tries again")
    var left = Ownership(.owner("store"))
    _ = left.handle(.leaseLost)
    #expect(left.handle(.lastMemberLeft) == [.unregister], "the store is closing already, the lease is gone")
    #expect(left.isClosed)
    #expect(left.handle(.ownerIs("b")).isEmpty, "a late answer changes nothing")
  }

  @Test func theLastMemberLeavingClosesTheRoomAndReleasesItsLease() {
    var owned = Ownership(.owner("store"))
    #expect(owned.handle(.lastMemberLeft) == [.releaseLease(after: "store"), .unregister])
    #expect(owned.isClosed)
    var followed = Ownership(.follower(owner: "a"))
    #expect(followed.handle(.lastMemberLeft) == [.unregister])
    #expect(followed.isClosed)
    #expect(followed.handle(.lastMemberLeft).isEmpty, "closes once")
  }

  @Test func closingLeavesAFollowersMembersInTheOwnersRoom() {
    var owned = Ownership(.owner("store"))
    #expect(owned.handle(.close) == [.closeStore("store"), .releaseLease(after: "store"), .unregister])
    var followed = Ownership(.follower(owner: "a"))
    #expect(followed.handle(.close) == [.unregister, .detachMembers(owner: "a")])
    #expect(followed.handle(.close).isEmpty)
    guard case .closed = followed.target else {
      Issue.record("a closed room takes no requests")
      return
    }
  }

  @Test func aRoomClosedWhileItsStoreWasOpeningClosesThatStore() {
    var room = Ownership(.follower(owner: "a"))
    _ = room.handle(.checkOwner)
    _ = room.handle(.close)
    #expect(room.handle(.tookOver("store")) == [.closeStore("store"), .releaseLease(after: "store")])
    #expect(room.isClosed)
    #expect(room.handle(.ownerIs("b")).isEmpty, "a late answer changes nothing")
    #expect(room.handle(.checkOwner).isEmpty)
  }
}
