// The C side of the bridge: each function forwards to ImGui.
#include "imgui_bridge.h"

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <cstring>
#include <string>

namespace {
// The built-in font draws ASCII and Latin-1 only; messages from the rest of the
// program use a few typographic characters, shown here by their ASCII forms instead
// of the font's '?'.
std::string displayable(const char *text) {
  static const struct { const char *from; const char *to; } substitutes[] = {
      {"\u2013", "-"}, {"\u2014", "-"}, {"\u2026", "..."}, {"\u2192", "->"},
      {"\u2018", "'"}, {"\u2019", "'"}, {"\u201C", "\""}, {"\u201D", "\""}, {"\u2212", "-"},
  };
  std::string out;
  for (const char *p = text; *p;) {
    bool replaced = false;
    for (const auto &s : substitutes) {
      size_t length = std::strlen(s.from);
      if (std::strncmp(p, s.from, length) == 0) {
        out += s.to;
        p += length;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += *p++;
  }
  return out;
}
}  // namespace

extern "C" {

bool csui_init(GLFWwindow *window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO &io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is fixed; write no imgui.ini
  ImGui::StyleColorsDark();
  ImGuiStyle &style = ImGui::GetStyle();
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) return false;
  return ImGui_ImplOpenGL3_Init("#version 330 core");
}

void csui_shutdown(void) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void csui_new_frame(void) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void csui_render(void) {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool csui_wants_mouse(void) { return ImGui::GetIO().WantCaptureMouse; }
bool csui_wants_keyboard(void) { return ImGui::GetIO().WantCaptureKeyboard; }

bool csui_begin(const char *title, float x, float y, float width, float height, bool fixed) {
  ImGui::SetNextWindowPos(ImVec2(x, y), fixed ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(width, height), fixed ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse;
  if (fixed) {
    flags |= ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
             ImGuiWindowFlags_NoSavedSettings;
  }
  return ImGui::Begin(title, nullptr, flags);
}

void csui_end(void) { ImGui::End(); }
void csui_text(const char *text) { ImGui::TextUnformatted(displayable(text).c_str()); }
void csui_text_wrapped(const char *text) { ImGui::TextWrapped("%s", displayable(text).c_str()); }
void csui_text_colored(float r, float g, float b, const char *text) {
  ImGui::TextColored(ImVec4(r, g, b, 1.0f), "%s", displayable(text).c_str());
}
bool csui_button(const char *label) { return ImGui::Button(label); }
bool csui_checkbox(const char *label, bool *value) { return ImGui::Checkbox(label, value); }
bool csui_slider_float(const char *label, float *value, float min, float max, const char *format) {
  return ImGui::SliderFloat(label, value, min, max, format);
}
bool csui_slider_int(const char *label, int *value, int min, int max, const char *format) {
  return ImGui::SliderInt(label, value, min, max, format);
}
bool csui_radio(const char *label, bool active) { return ImGui::RadioButton(label, active); }
bool csui_drag_float(const char *label, float *value, float speed, float min, float max, const char *format) {
  return ImGui::DragFloat(label, value, speed, min, max, format);
}
bool csui_item_deactivated_after_edit(void) { return ImGui::IsItemDeactivatedAfterEdit(); }
bool csui_input_text(const char *label, char *buffer, size_t size) {
  return ImGui::InputText(label, buffer, size);
}
void csui_same_line(void) { ImGui::SameLine(); }
void csui_separator(void) { ImGui::Separator(); }
bool csui_collapsing_header(const char *label, bool default_open) {
  return ImGui::CollapsingHeader(label, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}
void csui_progress(float fraction, float width, const char *overlay) {
  ImGui::ProgressBar(fraction, ImVec2(width, 0.0f), overlay);
}
void csui_image(unsigned int texture, float width, float height) {
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<size_t>(texture)), ImVec2(width, height));
}
void csui_set_next_item_width(float width) { ImGui::SetNextItemWidth(width); }
float csui_available_width(void) { return ImGui::GetContentRegionAvail().x; }
bool csui_item_active(void) { return ImGui::IsItemActive(); }

bool csui_invisible_button(const char *id, float width, float height) {
  return ImGui::InvisibleButton(id, ImVec2(width > 1.0f ? width : 1.0f, height > 1.0f ? height : 1.0f));
}
void csui_item_rect(float *min_x, float *min_y, float *max_x, float *max_y) {
  ImVec2 lo = ImGui::GetItemRectMin();
  ImVec2 hi = ImGui::GetItemRectMax();
  *min_x = lo.x;
  *min_y = lo.y;
  *max_x = hi.x;
  *max_y = hi.y;
}
void csui_mouse_position(float *x, float *y) {
  ImVec2 at = ImGui::GetIO().MousePos;
  *x = at.x;
  *y = at.y;
}
void csui_draw_line(float x0, float y0, float x1, float y1, unsigned int rgba, float thickness) {
  ImGui::GetWindowDrawList()->AddLine(ImVec2(x0, y0), ImVec2(x1, y1), rgba, thickness);
}
void csui_draw_rect_filled(float x0, float y0, float x1, float y1, unsigned int rgba) {
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), rgba);
}

}  // extern "C"
