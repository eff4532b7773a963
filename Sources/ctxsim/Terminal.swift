#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal the stepper draws on: raw keys, the alternate screen, its size.
///
/// Whatever way the program leaves (q, Ctrl-C, a kill, a crash), the terminal's settings,
/// the main screen and the cursor are put back. Ctrl-C arrives as a key in raw mode, so
/// the stepper quits normally; the signal handlers cover `kill`, a closed terminal and a
/// crash, and use only async-signal-safe calls.
enum Terminal {
  /// A key the stepper understands.
  enum Key: Equatable {
    case character(Character)
    case left, right, up, down
    case pageUp, pageDown
    case interrupt
  }

  /// The settings to restore; a global because the signal handlers need them.
  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var isRaw = false

  /// Bytes that give the main screen and the cursor back.
  private static let restoreScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// Switches to raw mode and the alternate screen; false when standard input is not a
  /// terminal.
  static func enter() -> Bool {
    guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
    var raw = saved
    cfmakeraw(&raw)
    // Keep output processing so that "\n" still returns the carriage.
    raw.c_oflag = saved.c_oflag
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
    isRaw = true
    for signal in [SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGINT] {
      installRestoringHandler(signal)
    }
    draw("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    return true
  }

  /// Puts the terminal back as it was. Safe to call more than once.
  static func leave() {
    guard isRaw else { return }
    isRaw = false
    restoreScreen.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
  }

  private static func installRestoringHandler(_ number: Int32) {
    _ = signal(number) { received in
      Terminal.leave()
      // Die of the same signal, as the program would have without the handler.
      _ = signal(received, SIG_DFL)
      _ = raise(received)
    }
  }

  /// Writes straight to the terminal, unbuffered.
  static func draw(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        write(STDOUT_FILENO, $0.baseAddress, $0.count)
      }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Columns and rows, or 80×24 when the terminal does not say.
  static func size() -> (width: Int, height: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The keys typed, empty when none came within `milliseconds` (so the caller can
  /// notice a resize), or nil at the end of input. Several keys may arrive in one read
  /// when typed fast or pasted; unknown escape sequences are dropped.
  static func readKeys(milliseconds: Int32) -> [Key]? {
    var request = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&request, 1, milliseconds) > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
    guard count > 0 else { return nil }
    return decode(Array(buffer.prefix(count)))
  }

  static func decode(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if byte == 0x1B {
        // ESC [ X or ESC O X: an arrow; anything else after ESC is skipped.
        if i + 2 < bytes.count, bytes[i + 1] == 0x5B || bytes[i + 1] == 0x4F {
          switch bytes[i + 2] {
          case 0x41: keys.append(.up)
          case 0x42: keys.append(.down)
          case 0x43: keys.append(.right)
          case 0x44: keys.append(.left)
          // ESC [ 5 ~ and ESC [ 6 ~: page up and page down.
          case 0x35, 0x36:
            if i + 3 < bytes.count && bytes[i + 3] == 0x7E {
              keys.append(bytes[i + 2] == 0x35 ? .pageUp : .pageDown)
              i += 1
            }
          default: break
          }
          i += 3
        } else {
          i += 1
        }
        continue
      }
      switch byte {
      case 0x03, 0x04: keys.append(.interrupt)
      case 0x0D, 0x0A: keys.append(.character("\n"))
      case 0x20...0x7E: keys.append(.character(Character(UnicodeScalar(byte))))
      default: break
      }
      i += 1
    }
    return keys
  }
}
