import StatecastClient
import Testing

@testable import StatecastTransport

/// The service thread as a task executor: a task that prefers it runs there while the
/// loop runs, and on the global executor before it starts and after it ends.
@Suite(.timeLimit(.minutes(1)))
struct ServiceExecutorTests {
  /// Which thread the preferring task's code ran on, sampled across suspension points.
  private static func threadsSeen(by transport: WebSocketTransport) async -> [Bool] {
    await Task(executorPreference: transport.executor) {
      var seen = [transport.serviceThread.isCurrentAndRunning]
      // After a hop to a default actor and back, and after a plain suspension.
      seen.append(await Probe().onServiceThread(transport.serviceThread))
      seen.append(transport.serviceThread.isCurrentAndRunning)
      await Task.yield()
      seen.append(transport.serviceThread.isCurrentAndRunning)
      return seen
    }.value
  }

  @Test func aPreferringTaskRunsOnTheServiceThreadWhileTheLoopRuns() async throws {
    let fixture = try TransportFixture.start()
    #expect(await Self.threadsSeen(by: fixture.transport) == [true, true, true, true])
    await fixture.stop()
  }

  @Test func beforeTheLoopStartsAndAfterItEndsTheGlobalExecutorRunsIt() async throws {
    let transport = WebSocketTransport(
      configuration: TransportConfiguration(port: 0), handler: RecordingHandler())
    #expect(await Self.threadsSeen(by: transport) == [false, false, false, false])
    _ = try transport.start()
    await transport.shutdown()
    #expect(await Self.threadsSeen(by: transport) == [false, false, false, false])
  }

  @Test func aTaskThatKeepsYieldingFinishesAndLetsTheSocketsBeServed() async throws {
    let fixture = try TransportFixture.start { $0.echo = true }
    // More rounds of jobs than one turn of the loop runs: the loop serves its sockets in
    // between and comes back to the task.
    let yields = await Task(executorPreference: fixture.transport.executor) {
      for _ in 0..<1_000 { await Task.yield() }
      return fixture.transport.serviceThread.isCurrentAndRunning
    }.value
    #expect(yields)
    let connection = try await fixture.client.connect(to: fixture.echoURL)
    connection.send(text: "still served")
    var events = connection.events.makeAsyncIterator()
    #expect(await events.next() == .text(Array("still served".utf8)))
    await fixture.stop()
  }
}

private actor Probe {
  func onServiceThread(_ thread: ServiceThread) -> Bool {
    thread.isCurrentAndRunning
  }
}
