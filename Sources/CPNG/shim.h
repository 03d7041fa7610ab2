// libpng's simplified API (png_image), from Debian's libpng-dev.
#include <png.h>
