import Foundation
import StatecastClient
import Testing

@testable import StatecastTransport

/// The service thread as tools see it: its name, and the CPU clock a benchmark reads to
/// tell the server's own work from the wall clock's waiting.
@Suite(.timeLimit(.minutes(1)))
struct ServiceThreadTests {
  @Test func theLoopThreadIsNamedAndItsCPUClockCountsItsWork() async throws {
    let fixture = try TransportFixture.start { $0.echo = true }
    let connection = try await fixture.client.connect(to: fixture.echoURL)
    connection.send(text: "warm")
    _ = await connection.nextEvent()
    let before = try #require(fixture.transport.serviceThread.cpuTime)
    let payload = [UInt8](repeating: UInt8(ascii: "e"), count: 65_536)
    for _ in 0..<200 {
      connection.send(binary: payload)
      _ = await connection.nextEvent()
    }
    let after = try #require(fixture.transport.serviceThread.cpuTime)
    let names = Self.threadNames()
    await fixture.stop()
    #expect(after > before)
    #expect(names.contains("statecast-lws"))
    #expect(names.contains("statecastclient"))
  }

  @Test func aThreadThatNeverEnteredHasNoCPUClock() {
    #expect(ServiceThread().cpuTime == nil)
  }

  /// The names of this process's threads, as `top -H` and `perf` show them.
  static func threadNames() -> Set<String> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(
      tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
          .trimmingCharacters(in: .whitespacesAndNewlines)
      })
  }
}
