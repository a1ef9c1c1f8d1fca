#include <sqlite3.h>

/* sqlite3_db_config takes variable arguments, which Swift cannot pass: this sets one of its
   on/off options (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, say). */
static inline int checkrun_db_config_flag(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}
