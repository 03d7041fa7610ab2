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
uniform vec3 uBackground;
out vec4 fragColor;

float logDepth(vec2 uv) {
  float z = texture(uSceneDepth, uv).r;
  if (z >= 1.0) return -1.0;  // background
  float ndc = z * 2.0 - 1.0;
  float near = uNearFar.x;
  float far = uNearFar.y;
  float linear = 2.0 * near * far / (far + near - ndc * (far - near));
  return log2(max(linear, 1e-6));
}

void main() {
  vec4 color = texture(uSceneColor, vTexCoord);
  if (uEyeDome == 0) {
    fragColor = vec4(color.rgb, 1.0);
    return;
  }
  float center = logDepth(vTexCoord);
  if (center < -0.5 && texture(uSceneDepth, vTexCoord).r >= 1.0) {
    fragColor = vec4(uBackground, 1.0);
    return;
  }
  float response = 0.0;
  vec2 offsets[8] = vec2[8](vec2(1, 0), vec2(-1, 0), vec2(0, 1), vec2(0, -1),
                            vec2(1, 1), vec2(-1, 1), vec2(1, -1), vec2(-1, -1));
  for (int i = 0; i < 8; ++i) {
    float neighbour = logDepth(vTexCoord + offsets[i] * uTexelSize * 1.5);
    // A background neighbour counts as far away.
    float difference = neighbour < -0.5 ? 4.0 : center - neighbour;
    response += max(0.0, difference);
  }
  float shade = exp(-response * uEyeDomeStrength);
  fragColor = vec4(color.rgb * shade, 1.0);
}
