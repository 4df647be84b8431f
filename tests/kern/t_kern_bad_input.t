#!/usr/bin/perl
# The msr and perf backends against nbsim's emulated kernel when it says
# no: no privilege, no msr driver, perf_event_paranoid too high; natively,
# a CPU that is not a NetBurst.  Each time the component is disabled with
# the reason, and nothing else changes (the sim backend still works).
use strict;
use warnings;
use Test::More;

my $u = "$ENV{NB_PAPI_SRC}/utils";
my $nbsim = $ENV{NBSIM};
my $nobody = 'setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp';

sub avail {
	my ($pre, $be, $opts) = @_;
	my $out = `$pre env P4NETBURST_BACKEND=$be $nbsim $opts -- $u/papi_component_avail 2>&1`;
	return $out;
}

plan skip_all => 'needs root (to drop privileges with setpriv)' if $> != 0;
plan skip_all => 'needs setpriv' if system('command -v setpriv >/dev/null') != 0;

my $out = avail('', 'msr', '');
like($out, qr/Active components:\s*\nName:\s+p4netburst/, 'msr as root: active');
$out = avail($nobody, 'msr', '');
like($out, qr/Disabled: P4NETBURST_BACKEND=msr: cannot open \/dev\/cpu\/0\/msr: Permission denied \(needs root or CAP_SYS_RAWIO\)/,
     'msr as an unprivileged user: disabled, EACCES, the reason named');
$out = avail('setpriv --bounding-set=-sys_rawio --inh-caps=-sys_rawio', 'msr', '');
like($out, qr/Disabled: P4NETBURST_BACKEND=msr: cannot open \/dev\/cpu\/0\/msr: Operation not permitted \(needs root or CAP_SYS_RAWIO\)/,
     'msr as root without CAP_SYS_RAWIO: disabled, EPERM');
$out = avail('', 'msr', '--msr-driver=no');
like($out, qr/Disabled: P4NETBURST_BACKEND=msr: cannot open \/dev\/cpu\/0\/msr: No such file or directory \(load the msr driver: modprobe msr\)/,
     'no msr driver: disabled, ENOENT, says modprobe msr');
$out = avail($nobody, 'perf', '');
like($out, qr/Active components:\s*\nName:\s+p4netburst/,
     'perf as an unprivileged user at perf_event_paranoid 2: active (user-mode events)');
$out = avail($nobody, 'perf', '--perf-paranoid=3');
like($out, qr/Disabled: P4NETBURST_BACKEND=perf: perf_event_open of a raw P4 event: Permission denied \(\/proc\/sys\/kernel\/perf_event_paranoid is 3/,
     'perf as an unprivileged user at perf_event_paranoid 3: disabled, the level named');
$out = avail('', 'perf', '--perf-paranoid=3');
like($out, qr/Active components:\s*\nName:\s+p4netburst/, 'perf as root at level 3: active (CAP_PERFMON)');
$out = `P4NETBURST_BACKEND=perf $u/papi_component_avail 2>&1`;
like($out, qr/Disabled: P4NETBURST_BACKEND=perf: this CPU .* is not a NetBurst/,
     'natively (not a NetBurst): disabled with the CPU named');
$out = `$nobody $nbsim -- $u/papi_component_avail 2>&1`;
like($out, qr/Active components:\s*\nName:\s+p4netburst/, 'the sim backend is unaffected (unprivileged)');
done_testing();
