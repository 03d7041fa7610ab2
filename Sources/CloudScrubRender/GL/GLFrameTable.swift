import CGL

/// The frame table on the GPU: the first point index of each frame, as a buffer
/// texture the points shader searches. Four bytes a frame; it grows by doubling and is
/// written from a CPU copy when it does (it is small next to the points).
struct GLFrameTable {
  private var buffer: GLuint = 0
  private var texture: GLuint = 0
  private var capacity = 0
  private var starts: [Int32] = []

  var count: Int { starts.count }

  mutating func write(_ newStarts: [Int32], atFrame firstFrame: Int) {
    starts.removeSubrange(min(firstFrame, starts.count)...)
    starts.append(contentsOf: newStarts)
    if buffer == 0 {
      glGenBuffers(1, &buffer)
      glGenTextures(1, &texture)
    }
    glBindBuffer(GLenum(GL_TEXTURE_BUFFER), buffer)
    if starts.count > capacity {
      capacity = max(1024, capacity * 2, starts.count)
      glBufferData(
        GLenum(GL_TEXTURE_BUFFER), GLsizeiptr(capacity * 4), nil, GLenum(GL_DYNAMIC_DRAW))
      starts.withUnsafeBytes { raw in
        glBufferSubData(GLenum(GL_TEXTURE_BUFFER), 0, GLsizeiptr(raw.count), raw.baseAddress)
      }
      glBindTexture(GLenum(GL_TEXTURE_BUFFER), texture)
      glTexBuffer(GLenum(GL_TEXTURE_BUFFER), GLenum(GL_R32I), buffer)
    } else {
      newStarts.withUnsafeBytes { raw in
        glBufferSubData(
          GLenum(GL_TEXTURE_BUFFER), GLintptr(firstFrame * 4), GLsizeiptr(raw.count),
          raw.baseAddress)
      }
    }
    glBindBuffer(GLenum(GL_TEXTURE_BUFFER), 0)
  }

  func bind() {
    glBindTexture(GLenum(GL_TEXTURE_BUFFER), texture)
  }

  mutating func release() {
    if buffer != 0 { glDeleteBuffers(1, &buffer) }
    if texture != 0 { glDeleteTextures(1, &texture) }
    buffer = 0
    texture = 0
    capacity = 0
    starts = []
  }
}
