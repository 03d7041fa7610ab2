import CGL
import Foundation

/// The framebuffer the scene is drawn into: a colour and a depth texture, which the
/// composite pass reads (eye-dome lighting needs the depth), and which the CPU point
/// rasterizer's picture is uploaded into. Resized on demand.
///
/// A side longer than the implementation's `GL_MAX_TEXTURE_SIZE` is refused with an
/// error naming both. `CLOUDSCRUB_SCENE_TARGET_LIMIT` (pixels, read once at start)
/// lowers that limit, so that a framebuffer that cannot be made can be tried on
/// purpose (the end-to-end tests do).
final class GLSceneTarget {
  /// The limit `CLOUDSCRUB_SCENE_TARGET_LIMIT` asks for, if it names a positive count.
  static let limitFromEnvironment: Int? = {
    guard let text = ProcessInfo.processInfo.environment["CLOUDSCRUB_SCENE_TARGET_LIMIT"],
      let value = Int(text), value > 0
    else { return nil }
    return value
  }()

  private(set) var framebuffer: GLuint = 0
  private(set) var colorTexture: GLuint = 0
  private(set) var depthTexture: GLuint = 0
  private(set) var width = 0
  private(set) var height = 0

  func ensureSize(width: Int, height: Int) throws(RenderError) {
    guard width != self.width || height != self.height || framebuffer == 0 else { return }
    release()
    let largest = Self.largestSidePixels()
    guard width <= largest, height <= largest else {
      throw RenderError(
        "the scene framebuffer cannot be \(width)×\(height) pixels: this OpenGL draws at most "
          + "\(largest) pixels a side")
    }
    self.width = width
    self.height = height
    glGenFramebuffers(1, &framebuffer)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    colorTexture = Self.texture(
      width: width, height: height, internalFormat: GL_RGBA8, format: GL_RGBA,
      type: GL_UNSIGNED_BYTE)
    glFramebufferTexture2D(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), colorTexture, 0)
    // 32-bit float depth: the CPU rasterizer's depth goes in as it is, with no conversion.
    depthTexture = Self.texture(
      width: width, height: height, internalFormat: GL_DEPTH_COMPONENT32F,
      format: GL_DEPTH_COMPONENT,
      type: GL_FLOAT)
    glFramebufferTexture2D(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_TEXTURE_2D), depthTexture, 0)
    let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      release()
      throw RenderError(
        "the \(width)×\(height) scene framebuffer is incomplete (status 0x"
          + "\(String(status, radix: 16)))")
    }
  }

  /// The longest side a scene texture may have here.
  static func largestSidePixels() -> Int {
    var largest: GLint = 0
    glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &largest)
    let limit = largest > 0 ? Int(largest) : Int.max
    return min(limit, limitFromEnvironment ?? Int.max)
  }

  func release() {
    if framebuffer != 0 { glDeleteFramebuffers(1, &framebuffer) }
    if colorTexture != 0 { glDeleteTextures(1, &colorTexture) }
    if depthTexture != 0 { glDeleteTextures(1, &depthTexture) }
    framebuffer = 0
    colorTexture = 0
    depthTexture = 0
    width = 0
    height = 0
  }

  deinit { release() }

  private static func texture(
    width: Int, height: Int, internalFormat: Int32, format: Int32, type: Int32
  ) -> GLuint {
    var id: GLuint = 0
    glGenTextures(1, &id)
    glBindTexture(GLenum(GL_TEXTURE_2D), id)
    glTexImage2D(
      GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(width), GLsizei(height), 0, GLenum(format),
      GLenum(type), nil)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    return id
  }
}
