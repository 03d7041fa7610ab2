import COpenEXR
import Foundation

/// Bytes in memory that OpenEXR's core reads through custom stream callbacks, and the
/// last error message the library reported about them.
///
/// One stream belongs to one read on one thread: the library calls back on the thread
/// that called it, and only while the bytes are valid.
final class EXRByteStream {
  let bytes: UnsafeRawBufferPointer
  let path: String
  /// The library's most recent error message (it reports through a callback, not a
  /// return value).
  var lastMessage: String?

  init(bytes: UnsafeRawBufferPointer, path: String) {
    self.bytes = bytes
    self.path = path
  }

  /// Opens a read context over the bytes, runs `body` with it and closes it again.
  ///
  /// - Throws: `EXRError.corrupt` when the header cannot be parsed; whatever `body`
  ///   throws.
  func withReadContext<T>(_ body: (exr_context_t) throws -> T) throws -> T {
    var initializer = exr_context_initializer_t()
    initializer.size = MemoryLayout<exr_context_initializer_t>.size
    initializer.user_data = Unmanaged.passUnretained(self).toOpaque()
    initializer.read_fn = readCallback
    initializer.size_fn = sizeCallback
    initializer.error_handler_fn = errorCallback
    // The values OpenEXR's EXR_DEFAULT_CONTEXT_INITIALIZER uses.
    initializer.zip_level = -2
    initializer.dwa_quality = -1
    return try withExtendedLifetime(self) {
      var context: exr_context_t?
      // The name only labels the library's messages, but it must not be empty.
      let status = exr_start_read(&context, path.isEmpty ? "(memory)" : path, &initializer)
      defer { if context != nil { exr_finish(&context) } }
      guard status == EXR_ERR_SUCCESS.rawValue, let context else {
        throw error(status, stage: "reading the header")
      }
      return try body(context)
    }
  }

  /// An `EXRError.corrupt` for a failed library call, with the library's message.
  func error(_ status: exr_result_t, stage: String) -> EXRError {
    let fallback = exr_get_default_error_message(status).map { String(cString: $0) }
    let message = lastMessage ?? fallback ?? "error \(status)"
    return EXRError(.corrupt(stage: stage, message: message), path: path)
  }
}

// MARK: - Callbacks

/// Copies `size` bytes at `offset` like `pread`: a short count at the end of the bytes,
/// which the library reports as a truncated file.
private let readCallback: exr_read_func_ptr_t = { _, userData, buffer, size, offset, _ in
  guard let userData, let buffer else { return -1 }
  let stream = Unmanaged<EXRByteStream>.fromOpaque(userData).takeUnretainedValue()
  let available = UInt64(stream.bytes.count)
  guard offset <= available, let base = stream.bytes.baseAddress else { return -1 }
  let count = min(size, available - offset)
  if count > 0 { memcpy(buffer, base + Int(offset), Int(count)) }
  return Int64(count)
}

private let sizeCallback: exr_query_size_func_ptr_t = { _, userData in
  guard let userData else { return -1 }
  return Int64(Unmanaged<EXRByteStream>.fromOpaque(userData).takeUnretainedValue().bytes.count)
}

/// Keeps the message for the error we throw instead of printing it to stderr (the
/// library's default).
private let errorCallback: exr_error_handler_cb_t = { context, _, message in
  var userData: UnsafeMutableRawPointer?
  guard exr_get_user_data(context, &userData) == EXR_ERR_SUCCESS.rawValue, let userData else {
    return
  }
  let stream = Unmanaged<EXRByteStream>.fromOpaque(userData).takeUnretainedValue()
  stream.lastMessage = message.map { String(cString: $0) }
}
