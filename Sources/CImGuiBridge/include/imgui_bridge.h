// A small C interface to Dear ImGui (Debian's libimgui-dev, with its GLFW and
// OpenGL 3 backends), so Swift calls plain C functions and C++ stays in this target.
#ifndef CLOUDSCRUB_IMGUI_BRIDGE_H
#define CLOUDSCRUB_IMGUI_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct GLFWwindow GLFWwindow;

/// Starts ImGui on a window whose GL context is current. Install the window's own
/// GLFW callbacks first: ImGui chains to them.
bool csui_init(GLFWwindow *window);
void csui_shutdown(void);
void csui_new_frame(void);
void csui_render(void);
/// Whether ImGui is using the mouse or keyboard this frame (the 3D view must not).
bool csui_wants_mouse(void);
bool csui_wants_keyboard(void);

/// A panel at a fixed place. `fixed` panels have no title bar and cannot move.
bool csui_begin(const char *title, float x, float y, float width, float height, bool fixed);
void csui_end(void);

void csui_text(const char *text);
void csui_text_wrapped(const char *text);
void csui_text_colored(float r, float g, float b, const char *text);
bool csui_button(const char *label);
bool csui_checkbox(const char *label, bool *value);
bool csui_slider_float(const char *label, float *value, float min, float max, const char *format);
bool csui_slider_int(const char *label, int *value, int min, int max, const char *format);
bool csui_radio(const char *label, bool active);
bool csui_drag_float(const char *label, float *value, float speed, float min, float max, const char *format);
/// Whether the last item was released after a change (one undo step per drag).
bool csui_item_deactivated_after_edit(void);
bool csui_input_text(const char *label, char *buffer, size_t size);
void csui_same_line(void);
void csui_separator(void);
bool csui_collapsing_header(const char *label, bool default_open);
void csui_progress(float fraction, float width, const char *overlay);
void csui_image(unsigned int texture, float width, float height);
void csui_set_next_item_width(float width);
float csui_available_width(void);
/// Whether the last item is being dragged or held.
bool csui_item_active(void);
/// An empty item of the given size that takes clicks and drags (curves drawn on it).
bool csui_invisible_button(const char *id, float width, float height);
/// The last item's rectangle, in window pixels (top-left origin).
void csui_item_rect(float *min_x, float *min_y, float *max_x, float *max_y);
/// The mouse, in the same pixels.
void csui_mouse_position(float *x, float *y);
/// Draws in the current panel; `rgba` is red in the low byte, alpha in the high.
void csui_draw_line(float x0, float y0, float x1, float y1, unsigned int rgba, float thickness);
void csui_draw_rect_filled(float x0, float y0, float x1, float y1, unsigned int rgba);

#ifdef __cplusplus
}
#endif

#endif
