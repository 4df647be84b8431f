#!/usr/bin/perl
# t_add_start.t's checks on the perf backend as an unprivileged user
# (ctests/add_start.c), where the emulated kernel refuses more
# (perf_event_paranoid, sim/kernel/nb_kern.c): at the default level 2 counting
# the kernel (:k=1, PAPI_DOM_KERNEL) needs privilege, so those names and
# PAPI_set_domain to the kernel's domain are refused at add and at the
# option, with the reason; with Hyper-Threading on at level 1 the events
# the kernel marks shared need it too (perf_allow_cpu), and a preset that
# only they count is not offered.  Every refusal names perf_event_paranoid
# or another backend; what adds, starts.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

plan skip_all => 'needs root (to drop privileges with setpriv)' if $> != 0;
plan skip_all => 'needs setpriv' if system('command -v setpriv >/dev/null') != 0;

my @nobody = qw(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp);
my @o = ('--nbsim-clock=fast', '--nbsim-warn-unmodelled=no');
for my $r (['paranoid 2', []], ['paranoid 1, HT on', ['--ht=yes', '--perf-paranoid=1']]) {
	my ($what, $opts) = @$r;
	local $ENV{P4NETBURST_BACKEND} = 'perf';
	my ($st, $out) = PapiSuite::run_one('/tmp', [@nobody, $ENV{NBSIM}, '-q', @o, @$opts, '--',
						     "$ENV{NB_BUILD}/tests/add_start", 100, 0x200], 240);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	ok($good, "perf backend as nobody, $what: $ok/$plan") or diag($out);
	like($out, qr/^ok 6 - .*: 1 domains accepted and started, 2 refused with the reason/m, "$what: the kernel's domain and both refused at PAPI_set_domain, the user's started") if $what eq 'paranoid 2';
}
done_testing();
