import Foundation
import Statecast
import StatecastExamples
import StatecastTesting
import Testing

@Suite("Signup")
struct SignupTests {
  let clock = CountingClock()

  func makeStore(_ state: Signup.State = Signup.State()) -> TestStore<Signup.State, Signup.Action> {
    TestStore(
      initialState: state,
      reducer: Signup.reducer(
        dependencies: Signup.Dependencies(clock: clock) {
          Signup.Dependencies.takenNames.contains($0.lowercased())
        }))
  }

  @Test func aNameLeftAloneIsCheckedAndATakenOneGetsItsError() async {
    let store = makeStore()
    await store.send(.client(.nameChanged(text: "Ada"))) {
      $0.name = "Ada"
      $0.nameCheck = .checking("Ada")
    }
    await clock.advance(by: .milliseconds(300), afterSleeps: 1)
    await store.receive(.nameChecked(name: "Ada", taken: true)) {
      $0.nameCheck = .checked("Ada")
      $0.serverErrors = FieldErrors(["name": "Ada is taken; try another name"])
    }
    #expect(Signup.errors(of: store.state)["name"] == ["Ada is taken; try another name"])
    // Fixing the name clears the server's error at once.
    await store.send(.client(.nameChanged(text: "Ada L"))) {
      $0.name = "Ada L"
      $0.serverErrors = FieldErrors()
      $0.nameCheck = .checking("Ada L")
    }
    await clock.advance(by: .milliseconds(300), afterSleeps: 2)
    await store.receive(.nameChecked(name: "Ada L", taken: false)) { $0.nameCheck = .checked("Ada L") }
    await store.finish()
  }

  @Test func typingAgainWithinThePauseChecksOnlyTheLastName() async {
    let store = makeStore()
    await store.send(.client(.nameChanged(text: "ad"))) {
      $0.name = "ad"
      $0.nameCheck = .checking("ad")
    }
    await store.send(.client(.nameChanged(text: "admin"))) {
      $0.name = "admin"
      $0.nameCheck = .checking("admin")
    }
    await clock.advance(by: .milliseconds(300), afterSleeps: 2)
    await store.receive(.nameChecked(name: "admin", taken: true)) {
      $0.nameCheck = .checked("admin")
      $0.serverErrors = FieldErrors(["name": "admin is taken; try another name"])
    }
    await store.finish()
  }

  @Test func eachFieldHasItsRule() {
    var state = Signup.State()
    #expect(
      Signup.errors(of: state).messages == [
        "name": ["Enter a name"], "email": ["Enter your email address"],
        "password": ["At least 12 characters"],
      ])
    state.name = String(repeating: "x", count: 41)
    state.email = "ada@example"
    state.password = "correct horse battery"
    #expect(
      Signup.errors(of: state).messages == [
        "name": ["At most 40 characters"], "email": ["Enter a valid email address"],
      ])
    #expect(Signup.strength(of: "short") == 0)
    #expect(Signup.strength(of: "abcdefghijkl") == 1)
    #expect(Signup.strength(of: "Correct-Horse-9-Battery") == 4)
  }

  @Test func aSubmitWithErrorsChangesNothingAndAValidOneCreatesTheAccount() async {
    let store = makeStore()
    await store.send(.client(.submit))
    var valid = Signup.State()
    valid.name = "Grace"
    valid.nameCheck = .checked("Grace")
    valid.email = "grace@example.org"
    valid.password = "a long enough password"
    let ready = makeStore(valid)
    await ready.send(.client(.submit)) { $0.phase = .creating }
    await ready.send(.client(.submit))
    await clock.advance(by: .milliseconds(300), afterSleeps: 1)
    await ready.receive(.accountCreated) { $0.phase = .signedUp }
    #expect(Signup.viewState(ready.state).signedUp)
    await ready.finish()
  }

  @Test func aSubmitDuringTheNameCheckWaitsForIt() async {
    var state = Signup.State()
    state.email = "grace@example.org"
    state.password = "a long enough password"
    let store = makeStore(state)
    await store.send(.client(.nameChanged(text: "Grace"))) {
      $0.name = "Grace"
      $0.nameCheck = .checking("Grace")
    }
    await store.send(.client(.submit)) { $0.submitPending = true }
    await clock.advance(by: .milliseconds(300), afterSleeps: 1)
    await store.receive(.nameChecked(name: "Grace", taken: false)) {
      $0.nameCheck = .checked("Grace")
      $0.submitPending = false
      $0.phase = .creating
    }
    await clock.advance(by: .milliseconds(300), afterSleeps: 2)
    await store.receive(.accountCreated) { $0.phase = .signedUp }
    await store.finish()
  }
}
