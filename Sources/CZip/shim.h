// libzip, from Debian's libzip-dev: reading ZIP archives (Record3D .r3d) in memory.
#include <zip.h>
