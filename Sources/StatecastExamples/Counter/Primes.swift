import Foundation
public import FoundationEssentials

/// Prime numbers for the counter: a primality test and the nth prime.
///
/// `nth` sieves in steps and checks for cancellation between them, so that a question
/// replaced by a newer one (or cancelled by the person who asked) stops computing
/// instead of finishing work nobody will read.
///
/// ```swift
/// Primes.isPrime(7)        // true
/// try await Primes.nth(5)  // 11
/// ```
public enum Primes {
  /// Whether `n` is prime.
  public static func isPrime(_ n: Int) -> Bool {
    guard n >= 2 else { return false }
    if n < 4 { return true }
    if n.isMultiple(of: 2) || n.isMultiple(of: 3) { return false }
    var divisor = 5
    while divisor <= n / divisor {
      if n.isMultiple(of: divisor) || n.isMultiple(of: divisor + 2) { return false }
      divisor += 6
    }
    return true
  }

  /// The nth prime, counting from `nth(1) == 2`.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled;
  ///   ``PrimesError/notPositive(_:)`` when `n < 1`.
  public static func nth(_ n: Int) async throws -> Int {
    guard n >= 1 else { throw PrimesError.notPositive(n) }
    if n < 6 { return [2, 3, 5, 7, 11][n - 1] }
    // Rosser's bound: for n ≥ 6 the nth prime is below n (ln n + ln ln n).
    let logN = log(Double(n))
    let limit = Int(Double(n) * (logN + log(logN))) + 1
    var isComposite = [Bool](repeating: false, count: limit + 1)
    var found = 0
    var candidate = 2
    var checked = 0
    while candidate <= limit {
      if !isComposite[candidate] {
        found += 1
        if found == n { return candidate }
        if candidate <= limit / candidate {
          var multiple = candidate * candidate
          while multiple <= limit {
            isComposite[multiple] = true
            multiple += candidate
          }
        }
      }
      candidate += 1
      checked += 1
      if checked == 4096 {
        checked = 0
        try Task.checkCancellation()
        await Task.yield()
      }
    }
    preconditionFailure("Rosser's bound guarantees the nth prime is below \(limit)")
  }
}

/// Why a prime could not be computed.
public enum PrimesError: LocalizedError, Equatable, CustomStringConvertible {
  /// Primes are counted from 1.
  case notPositive(Int)

  public var errorDescription: String? { description }

  public var description: String {
    switch self {
    case .notPositive(let n): "There is no prime number \(n): primes are counted from 1."
    }
  }
}
