#!/bin/sh
# make install PREFIX=DIR: the layout the README promises, and it works.
p=$(mktemp -d)
trap 'rm -rf "$p"' EXIT
n=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo 1..16
make -s -C "$NB_SRC" install PREFIX="$p" >"$p.log" 2>&1
rc=$?
t 'make install PREFIX=DIR succeeds' '[ $rc -eq 0 ] || { sed "s/^/# /" "$p.log"; false; }'
rm -f "$p.log"
t 'DIR/bin has nbsim and the PAPI utilities' '[ -x "$p/bin/nbsim" ] && [ -x "$p/bin/papi_avail" ] && [ -x "$p/bin/papi_native_avail" ] && [ -x "$p/bin/papi_command_line" ]'
t 'DIR/include/papi.h' '[ -f "$p/include/papi.h" ]'
t 'DIR/lib/libpapi.so' '[ -e "$p/lib/libpapi.so" ]'
t 'DIR/lib/pkgconfig/papi.pc names DIR' 'grep -q "^prefix=$p\$" "$p/lib/pkgconfig/papi.pc"'
cat > "$p/hello.c" <<'EOC'
#include <stdio.h>
#include "papi.h"
int main(void) {
	long long v;
	int es = PAPI_NULL;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) return 1;
	if (PAPI_create_eventset(&es) || PAPI_add_named_event(es, "PAPI_TOT_INS")) return 2;
	PAPI_start(es); PAPI_stop(es, &v);
	printf("PAPI_TOT_INS %lld\n", v);
	return 0;
}
EOC
t 'a program builds against the installed papi.pc' 'PKG_CONFIG_PATH=$p/lib/pkgconfig cc -o "$p/hello" "$p/hello.c" $(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --cflags --libs papi) -Wl,-rpath,$p/lib'
t 'and counts under the installed nbsim' '"$p/bin/nbsim" -- "$p/hello" | grep -q "^PAPI_TOT_INS [1-9]"'
t 'the installed nbsim finds its tool' '"$p/bin/nbsim" -- "$p/bin/papi_component_avail" 2>&1 | grep -q "Counters: 18"'
t 'DIR/share/man has PAPI man pages (PAPI_start.3, papi_avail.1)' '[ -f "$p/share/man/man3/PAPI_start.3" ] && [ -f "$p/share/man/man1/papi_avail.1" ]'
t 'DIR/bin has the high-level API output writer papi_hl_output_writer.py' '[ -f "$p/bin/papi_hl_output_writer.py" ]'
t 'without an rpath, an installed program needs LD_LIBRARY_PATH (README says so)' 'cc -o "$p/hello2" "$p/hello.c" $(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --cflags --libs papi) && ! "$p/hello2" >/dev/null 2>&1 && LD_LIBRARY_PATH=$p/lib "$p/bin/nbsim" -- "$p/hello2" | grep -q "^PAPI_TOT_INS [1-9]"'
t 'README documents LD_LIBRARY_PATH and the rpath' 'grep -q "LD_LIBRARY_PATH=DIR/lib" "$NB_SRC/README.md" && grep -q "Wl,-rpath" "$NB_SRC/README.md"'
t 'DIR/bin has nb_stat and the nb_* tools' '[ -x "$p/bin/nb_stat" ] && [ -x "$p/bin/nb_schedule" ] && [ -x "$p/bin/nb_encode" ] && [ -x "$p/bin/nb_decode" ] && [ -x "$p/bin/nb_record" ] && [ -x "$p/bin/nb_report" ]'
t 'DIR/share/man/man1 has the man pages, and they render' 'for m in nb_stat nb_record nb_report nb_schedule nb_encode nb_decode nbsim; do [ -f "$p/share/man/man1/$m.1" ] && MANWIDTH=80 man -l "$p/share/man/man1/$m.1" 2>/dev/null | grep -q "^NAME" || exit 1; done'
t 'the installed nb_stat counts under the installed nbsim' '"$p/bin/nb_stat" -x , -e PAPI_TOT_INS -- "$p/hello" 2>&1 | grep -q "^[1-9][0-9]*,PAPI_TOT_INS,"'
t 'nothing outside DIR: the build tree has no stray install files' '[ ! -e "$NB_SRC/bin" ] && [ ! -e "$NB_SRC/lib" ]'
