import CGL
import CloudScrubCore

/// A framebuffer of a fixed size to render into with no window, and read back.
public final class OffscreenTarget {
  public let width: Int
  public let height: Int
  /// The framebuffer to give `GLBackend.outputFramebuffer`.
  public private(set) var framebuffer: GLuint = 0
  private var colorBuffer: GLuint = 0

  /// - Throws: `RenderError` when the framebuffer cannot be made.
  public init(width: Int, height: Int) throws {
    self.width = width
    self.height = height
    glGenFramebuffers(1, &framebuffer)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    glGenRenderbuffers(1, &colorBuffer)
    glBindRenderbuffer(GLenum(GL_RENDERBUFFER), colorBuffer)
    glRenderbufferStorage(
      GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
    glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), colorBuffer)
    let complete =
      glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
    guard complete else {
      throw RenderError("cannot make a \(width)×\(height) offscreen framebuffer")
    }
  }

  deinit {
    glDeleteFramebuffers(1, &framebuffer)
    glDeleteRenderbuffers(1, &colorBuffer)
  }

  /// The picture, top row first, three bytes a pixel.
  public func readPixels() -> RGBImage {
    Self.readPixels(of: framebuffer, x: 0, y: 0, width: width, height: height)
  }

  /// A rectangle of `framebuffer`'s picture (its lower-left corner at `x`, `y` in GL's
  /// bottom-up pixels), top row first, three bytes a pixel: what the window's recorder
  /// takes of the 3D view.
  public static func readPixels(
    of framebuffer: GLuint, x: Int, y: Int, width: Int, height: Int
  ) -> RGBImage {
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    glFinish()
    var rgba = [UInt8](repeating: 0, count: width * height * 4)
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    glReadPixels(
      GLint(x), GLint(y), GLsizei(width), GLsizei(height), GLenum(GL_RGBA),
      GLenum(GL_UNSIGNED_BYTE), &rgba)
    return flippedRGB(rgba, width: width, height: height)
  }

  /// GL's rows run bottom-up and carry alpha; images run top-down with three bytes.
  static func flippedRGB(_ rgba: [UInt8], width: Int, height: Int) -> RGBImage {
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      let source = (height - 1 - y) * width * 4
      let destination = y * width * 3
      for x in 0..<width {
        rgb[destination + x * 3] = rgba[source + x * 4]
        rgb[destination + x * 3 + 1] = rgba[source + x * 4 + 1]
        rgb[destination + x * 3 + 2] = rgba[source + x * 4 + 2]
      }
    }
    return RGBImage(width: width, height: height, pixels: rgb)
  }
}
