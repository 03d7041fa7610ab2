#version 330 core
// Puts the scene on screen. With eye-dome lighting, each pixel darkens by how much
// nearer it is than its neighbours (in log depth), which outlines shapes in clouds
// with no colour or no normals.
in vec2 vTexCoord;
uniform sampler2D uSceneColor;
uniform sampler2D uSceneDepth;
uniform int uEyeDome;
uniform float uEyeDomeStrength;
uniform vec2 uTexelSize;
uniform vec2 uNearFar;
out vec4 fragColor;

// Log2 of the distance along the view; depth-buffer values of 1 are background.
float logDepth(float z) {
  float ndc = z * 2.0 - 1.0;
  float near = uNearFar.x;
  float far = uNearFar.y;
  float linear = 2.0 * near * far / (far + near - ndc * (far - near));
  return log2(max(linear, 1e-6));
}

void main() {
  vec4 color = texture(uSceneColor, vTexCoord);
  // Points write alpha 1; overlay lines and the background have alpha 0.
  if (uEyeDome == 0 || color.a < 0.5) {
    fragColor = vec4(color.rgb, 1.0);
    return;
  }
  float center = logDepth(texture(uSceneDepth, vTexCoord).r);
  float response = 0.0;
  float backgroundNeighbours = 0.0;
  vec2 offsets[8] = vec2[8](vec2(1, 0), vec2(-1, 0), vec2(0, 1), vec2(0, -1),
                            vec2(1, 1), vec2(-1, 1), vec2(1, -1), vec2(-1, -1));
  for (int i = 0; i < 8; ++i) {
    float z = texture(uSceneDepth, vTexCoord + offsets[i] * uTexelSize * 1.5).r;
    if (z >= 1.0) {
      backgroundNeighbours += 1.0;
    } else {
      response += max(0.0, center - logDepth(z));
    }
  }
  // Depth steps give the outlines; background around a point darkens it only a
  // little, so a sparse cloud is not drawn black.
  float shade = exp(-(response * uEyeDomeStrength + backgroundNeighbours * 0.15));
  fragColor = vec4(color.rgb * shade, 1.0);
}
