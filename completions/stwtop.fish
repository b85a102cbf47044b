# SPDX-License-Identifier: GPL-2.0-or-later
# stwtop.fish — stwtop(1) completion for fish, installed as
# share/fish/vendor_completions.d/stwtop.fish. What it completes is what
# completions/stwtop.bash says: the options (one `complete` line each, held to
# core/app/cli.c's table by tests/unit/test_cli_table.c), the running JVMs'
# pids with their command lines, theme names, demo names, zones, folders and
# files. No option takes a verdict id (--config is a JSON file).

# this file's folder: an install's data is ../../stwtop, a source tree's ..
set -g __stwtop_here (status dirname)

# the folders stwtop looks in for $what (themes or demo), the binary being $bin,
# in the order of core/app/theme.c's theme_search_dirs()
function __stwtop_data_dirs -a what bin
    if test "$what" = themes
        test -n "$STWTOP_THEME_DIR"; and echo $STWTOP_THEME_DIR
        if string match -q '/*' -- "$XDG_CONFIG_HOME"
            echo $XDG_CONFIG_HOME/stwtop/themes
        else if string match -q '/*' -- "$HOME"
            echo $HOME/.config/stwtop/themes
        end
    end
    set -l exe
    if string match -q '*/*' -- "$bin"
        set exe $bin
    else if test -n "$bin"
        set exe (command -s -- $bin)
    end
    if test -n "$exe"; and test -x "$exe"
        set exe (builtin realpath -- $exe)
        echo (string replace -r '/[^/]*$' '' -- $exe)/../share/stwtop/$what
    end
    echo $__stwtop_here/../../stwtop/$what
    if test "$what" = demo
        echo $__stwtop_here/../data/demo
    else
        echo $__stwtop_here/../themes
    end
end

# theme names; a path (with a '/') completes to folders and .json files
function __stwtop_themes
    set -l tok (commandline -ct | string replace -r '^--theme=' '')
    if string match -q '*/*' -- "$tok"
        __fish_complete_suffix "$tok" .json
        return
    end
    set -l names default dark
    for d in (__stwtop_data_dirs themes (commandline -opc)[1])
        for f in $d/*.json
            test -f $f; and set -a names (string replace -r '^.*/(.*)\.json$' '$1' -- $f)
        end
    end
    printf '%s\n' $names | sort -u
end

function __stwtop_demos
    for d in (__stwtop_data_dirs demo (commandline -opc)[1])
        for f in $d/*/demo.conf
            string replace -r '^.*/([^/]*)/demo\.conf$' '$1' -- $f
        end
    end | sort -u
end

# the running JVMs (named java, or libjvm.so mapped), with their command line
function __stwtop_jvm_pids
    set -l pids
    for f in (grep -lsx java /proc/*/comm 2>/dev/null) (grep -lsF /libjvm.so /proc/*/maps 2>/dev/null)
        set -a pids (string split / -- $f)[3]
    end
    for pid in (printf '%s\n' $pids | string match -r '^[0-9]+$' | sort -nu)
        set -l args (string split0 </proc/$pid/cmdline 2>/dev/null)
        printf '%s\t%s\n' $pid (string sub -l 100 -- "$args")
    end
end

function __stwtop_zones
    printf '%s\n' utc local
    awk '!/^#/ { print $3 }' /usr/share/zoneinfo/zone1970.tab 2>/dev/null | sort
end

complete -c stwtop -f
complete -c stwtop -l report -d 'read the sources once, print a summary and the verdicts'
complete -c stwtop -l demo -f -a '(__stwtop_demos)' -d 'replay a bundled real incident (--demo=NAME)'
complete -c stwtop -l gc -r -F -d 'a JVM GC/safepoint log or console log'
complete -c stwtop -l safepoint -r -F -d 'a JVM safepoint log'
complete -c stwtop -l nginx -r -F -d 'an nginx access log'
complete -c stwtop -l nginx-format -x -d 'the access log\'s log_format string'
complete -c stwtop -l nginx-conf -r -F -d 'read log_format NAME from an nginx config (FILE[:NAME])'
complete -c stwtop -l pid -x -a '(__stwtop_jvm_pids)' -d 'a JVM: its threads\' schedstat and its cgroup'
complete -c stwtop -l cgroup -x -a '(__fish_complete_directories (commandline -ct) cgroup)' -d 'poll this cgroup folder'
complete -c stwtop -l cpustat-log -r -F -d 'recorded cpu.stat samples'
complete -c stwtop -l schedstat-log -r -F -d 'recorded per-thread schedstat CSV'
complete -c stwtop -l vmstat-log -r -F -d 'recorded vmstat samples'
complete -c stwtop -l hs-err -r -F -d 'a JVM crash report (hs_err_pid*.log)'
complete -c stwtop -l record -r -F -d 'append every polled sample as NDJSON'
complete -c stwtop -l replay -r -F -d 'read samples of a recording'
complete -c stwtop -l jvm-start -r -F -d 'the wall clock of JVM uptime 0 (epoch ms, ISO 8601, or a file)'
complete -c stwtop -l interval -x -d 'polling and status interval (ms, default 1000)'
complete -c stwtop -l plain -d 'line mode: verdicts and a status line per interval'
complete -c stwtop -l json -d 'the report as JSON; in line mode NDJSON'
complete -c stwtop -l brief -d 'the report in at most 12 lines'
complete -c stwtop -l tz -x -a '(__stwtop_zones)' -d 'the zone times are shown in'
complete -c stwtop -l theme -x -a '(__stwtop_themes)' -d 'colour theme (a name or a JSON file)'
complete -c stwtop -l no-color -d 'no colours'
complete -c stwtop -l config -r -F -d 'override verdict thresholds (a JSON file)'
complete -c stwtop -l help-config -d 'list the verdict thresholds and exit'
complete -c stwtop -l demo-speed -x -d 'demo pace (default 4 = four times real time)'
complete -c stwtop -l verbose -d 'say why lines did not parse'
complete -c stwtop -l metrics -x -d 'serve Prometheus metrics at [ADDR:]PORT'
complete -c stwtop -l metrics-textfile -r -F -d 'write the same metrics to a file every interval'
complete -c stwtop -l enable-jvm-logging -d 'turn on the JVM\'s GC and safepoint logging and follow it'
complete -c stwtop -l help -d 'print the usage and the options and exit'
complete -c stwtop -l version -d 'print the version and the license and exit'
