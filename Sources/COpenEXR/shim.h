// OpenEXR's C core library (no C++), from Debian's libopenexr-dev.
#include <OpenEXR/openexr.h>
