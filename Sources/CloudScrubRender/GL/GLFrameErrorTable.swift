import CGL

/// Each frame's alignment error on the GPU, a float buffer texture the points shader
/// reads in the alignment-error colour mode (beside the frame table). Rewritten
/// whole when the values change; four bytes a frame.
struct GLFrameErrorTable {
  private var buffer: GLuint = 0
  private var texture: GLuint = 0
  private var values: [Float] = []
  private var written = false

  /// Makes the table hold `newValues` (one a frame; negative: not measured).
  mutating func write(_ newValues: [Float]) {
    guard !written || newValues != values else { return }
    if buffer == 0 {
      glGenBuffers(1, &buffer)
      glGenTextures(1, &texture)
    }
    values = newValues
    written = true
    // An empty buffer texture cannot be bound usefully: keep one unmeasured entry.
    let stored = values.isEmpty ? [-1] : values
    glBindBuffer(GLenum(GL_TEXTURE_BUFFER), buffer)
    stored.withUnsafeBytes { raw in
      glBufferData(
        GLenum(GL_TEXTURE_BUFFER), GLsizeiptr(raw.count), raw.baseAddress, GLenum(GL_DYNAMIC_DRAW))
    }
    glBindTexture(GLenum(GL_TEXTURE_BUFFER), texture)
    glTexBuffer(GLenum(GL_TEXTURE_BUFFER), GLenum(GL_R32F), buffer)
    glBindTexture(GLenum(GL_TEXTURE_BUFFER), 0)
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
    values = []
    written = false
  }
}
