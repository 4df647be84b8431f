#!/usr/bin/perl
# nbsim.sh's private VALGRIND_LIB (TMPDIR/nbsim-EUID/lib-KEY): links to the
# system valgrind's files, the tool and its preload library, made on the
# first start and reused.  A start that finds the directory's .paths equal
# to its own tool and libexec paths only makes the links that are missing
# (no find(1), no readlink per link); any other .paths (another pair whose
# key collided, or none) has every link read and repaired.  Checked here:
# the first start's links and .paths; a link removed, made again; a link
# pointing elsewhere under a foreign .paths, repaired, .paths rewritten;
# each start runs the program with the emulated kernel (its preload).
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $nbsim = $ENV{NBSIM} // die "NBSIM not set (run through make)\n";
my $tmp = tempdir(CLEANUP => 1);
$ENV{TMPDIR} = $tmp;
delete $ENV{XDG_RUNTIME_DIR};

# the emulated kernel answers /proc/sys/kernel/perf_event_paranoid only
# with the preload library loaded
sub start {
	my $o = `"$nbsim" --perf-paranoid=1 -- /bin/cat /proc/sys/kernel/perf_event_paranoid 2>&1`;
	return ($? >> 8, $o);
}

my ($rc, $o) = start();
is("$rc $o", "0 1\n", 'first start: exit 0, the emulated kernel loaded');
my @dirs = glob("$tmp/nbsim-$>/lib-*");
is(scalar @dirs, 1, 'one private directory');
my $lib = $dirs[0] // "$tmp/none";
like($lib, qr{/lib-\d{10}\z}, 'its key has ten digits');
open(my $fh, '<', "$lib/.paths") or BAIL_OUT("$lib/.paths: $!");
my $paths = do { local $/; <$fh> };
close $fh;
my ($tool, $libexec) = split /\n/, $paths;
is(readlink("$lib/nbsim-amd64-linux"), $tool, '.paths names the tool the link points to');
ok(-e "$libexec/vgpreload_core-amd64-linux.so", ".paths names valgrind's libexec directory ($libexec)");
is(readlink("$lib/vgpreload_core-amd64-linux.so"), "$libexec/vgpreload_core-amd64-linux.so",
   "valgrind's core preload linked");

unlink("$lib/vgpreload_core-amd64-linux.so") or die;
($rc, $o) = start();
is("$rc $o", "0 1\n", 'a link removed: the next start runs');
is(readlink("$lib/vgpreload_core-amd64-linux.so"), "$libexec/vgpreload_core-amd64-linux.so",
   'the removed link is made again');

# another pair's .paths: the links are read and the wrong one repaired
unlink("$lib/nbsim-amd64-linux") or die;
symlink('/bin/false', "$lib/nbsim-amd64-linux") or die;
open($fh, '>', "$lib/.paths") or die;
print $fh "/elsewhere/nbsim-amd64-linux\n$libexec";
close $fh;
($rc, $o) = start();
is("$rc $o", "0 1\n", 'a foreign .paths and a wrong link: the next start runs');
is(readlink("$lib/nbsim-amd64-linux"), $tool, 'the wrong link repaired');
open($fh, '<', "$lib/.paths") or die;
is(do { local $/; <$fh> }, $paths, '.paths rewritten for this tool');
close $fh;
done_testing();
