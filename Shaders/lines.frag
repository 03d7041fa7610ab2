#version 330 core
in vec4 vColor;
out vec4 fragColor;

void main() {
  // Alpha 0 marks overlay pixels, which eye-dome lighting leaves unshaded (a thin
  // line against the background would otherwise turn black).
  fragColor = vec4(vColor.rgb, 0.0);
}
