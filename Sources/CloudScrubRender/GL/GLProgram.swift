import CGL
import CloudScrubCore
import Foundation

/// Why the renderer could not start or draw.
public struct RenderError: Error, CustomStringConvertible, Equatable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// Where shader sources come from: the copies embedded at build time, or the files of
/// `CLOUDSCRUB_SHADER_DIR` when that is set (for editing shaders without rebuilding).
public enum ShaderLibrary {
  /// The names of every shader the binary carries.
  public static var names: [String] { EmbeddedShaders.sources.keys.sorted() }

  /// The source of shader `name` (a file name in `Shaders/`), with each line
  /// `#include "OTHER"` replaced by the source of `OTHER` (a `.glsl` file of functions
  /// the programs share).
  ///
  /// - Throws: `RenderError` when there is no such shader, or an include names none.
  public static func source(_ name: String) throws -> String {
    let text = try rawSource(name)
    guard text.contains("#include") else { return text }
    return try text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("#include \""), trimmed.hasSuffix("\""), trimmed.count > 11 else {
        return String(line)
      }
      let included = String(trimmed.dropFirst(10).dropLast())
      guard included != name else { throw RenderError("shader \(name) includes itself") }
      return try rawSource(included)
    }.joined(separator: "\n")
  }

  private static func rawSource(_ name: String) throws -> String {
    if let folder = ProcessInfo.processInfo.environment["CLOUDSCRUB_SHADER_DIR"], !folder.isEmpty {
      let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
      guard let data = FileManager.default.contents(atPath: path),
        let text = String(data: data, encoding: .utf8)
      else { throw RenderError("cannot read shader \(name) from CLOUDSCRUB_SHADER_DIR: \(path)") }
      return text
    }
    guard let text = EmbeddedShaders.sources[name] else {
      throw RenderError("no shader named \(name) was built into this binary")
    }
    return text
  }
}

/// A linked GLSL program with its uniform locations looked up once.
final class GLProgram {
  let id: GLuint
  private var locations: [String: GLint] = [:]

  init(vertex: String, fragment: String) throws {
    let vertexShader = try Self.compile(
      try ShaderLibrary.source(vertex), kind: GLenum(GL_VERTEX_SHADER), name: vertex)
    defer { glDeleteShader(vertexShader) }
    let fragmentShader = try Self.compile(
      try ShaderLibrary.source(fragment), kind: GLenum(GL_FRAGMENT_SHADER), name: fragment)
    defer { glDeleteShader(fragmentShader) }
    id = glCreateProgram()
    glAttachShader(id, vertexShader)
    glAttachShader(id, fragmentShader)
    glLinkProgram(id)
    var ok: GLint = 0
    glGetProgramiv(id, GLenum(GL_LINK_STATUS), &ok)
    if ok == 0 {
      let log = Self.infoLog(id, program: true)
      glDeleteProgram(id)
      throw RenderError("linking \(vertex) + \(fragment) failed: \(log)")
    }
  }

  deinit { glDeleteProgram(id) }

  func location(_ name: String) -> GLint {
    if let known = locations[name] { return known }
    let found = glGetUniformLocation(id, name)
    locations[name] = found
    return found
  }

  func set(_ name: String, _ value: Float) { glUniform1f(location(name), value) }
  func set(_ name: String, _ value: Int) { glUniform1i(location(name), GLint(value)) }
  func set(_ name: String, _ value: SIMD2<Float>) { glUniform2f(location(name), value.x, value.y) }
  func set(_ name: String, _ value: SIMD3<Float>) {
    glUniform3f(location(name), value.x, value.y, value.z)
  }
  func set(_ name: String, _ value: Matrix4) {
    var m = value.columnMajor
    withUnsafeBytes(of: &m) { raw in
      glUniformMatrix4fv(
        location(name), 1, GLboolean(GL_FALSE),
        raw.baseAddress?.assumingMemoryBound(to: GLfloat.self))
    }
  }

  private static func compile(_ source: String, kind: GLenum, name: String) throws -> GLuint {
    let shader = glCreateShader(kind)
    source.withCString { text in
      var pointer: UnsafePointer<GLchar>? = text
      glShaderSource(shader, 1, &pointer, nil)
    }
    glCompileShader(shader)
    var ok: GLint = 0
    glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
    if ok == 0 {
      let log = infoLog(shader, program: false)
      glDeleteShader(shader)
      throw RenderError("compiling shader \(name) failed: \(log)")
    }
    return shader
  }

  private static func infoLog(_ object: GLuint, program: Bool) -> String {
    var length: GLint = 0
    if program {
      glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    } else {
      glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    }
    guard length > 0 else { return "(no log)" }
    var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
    if program {
      glGetProgramInfoLog(object, length, nil, &buffer)
    } else {
      glGetShaderInfoLog(object, length, nil, &buffer)
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
