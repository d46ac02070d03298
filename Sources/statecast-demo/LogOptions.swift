public import ArgumentParser
public import Logging

/// How the demo logs: the flags of `statecast-demo --help`'s "Logs" section.
struct LogOptions: ParsableArguments {
  enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// One line per event for a person: time, level, label, metadata, message.
    case text
    /// One JSON object per line for a log collector (``JSONLogHandler``).
    case json
  }

  @Option(
    help: ArgumentHelp(
      "Least severe level logged (default info; env STATECAST_LOG_LEVEL).", valueName: "level"))
  var logLevel: Logger.Level?

  @Option(
    help: ArgumentHelp(
      "Log lines as text, or as one JSON object each (default text; env STATECAST_LOG_FORMAT).",
      valueName: "format"))
  var logFormat: Format?

  mutating func validate() throws {
    _ = try resolved(Environment())
  }

  /// The level and format from the flags, else the environment, else info and text.
  func resolved(_ environment: Environment) throws -> (level: Logger.Level, format: Format) {
    (
      try environment.value(logLevel, "STATECAST_LOG_LEVEL", for: "--log-level") ?? .info,
      try environment.value(logFormat, "STATECAST_LOG_FORMAT", for: "--log-format") ?? .text
    )
  }

  /// Points swift-log at standard error in the chosen format, for the whole process;
  /// call once, before the first logger is made.
  func bootstrap(_ environment: Environment) throws {
    let (level, format) = try resolved(environment)
    LoggingSystem.bootstrap { label in
      var handler: any LogHandler =
        switch format {
        case .text: StreamLogHandler.standardError(label: label)
        case .json: JSONLogHandler(label: label)
        }
      handler.logLevel = level
      return handler
    }
  }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
