#!/usr/bin/perl
# nbsim --nbsim-program=FILE (the register images nb_stat writes): a FILE
# nbsim cannot use is refused with its name and the reason, before the
# guest runs.  A directory was once taken for an empty program: the run
# went on with no counter programmed, and --nbsim-counts reported zeros.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set (run through make)');
my $prog = "$ENV{NB_BUILD}/tests/stat/k_loop";
-x $prog or BAIL_OUT("$prog not built");
my $dir = tempdir(CLEANUP => 1);

sub nbsim {
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		exec $nbsim, @_ or exit 250;
	}
	local $/;
	my $text = <$fh> // '';
	close $fh;
	return ($? >> 8, $text);
}

sub write_file {
	my ($name, $text) = @_;
	open(my $fh, '>', "$dir/$name") or die;
	print $fh $text;
	close $fh;
	return "$dir/$name";
}

my @cases = (
	[ 'a directory', $dir, qr/cannot read --nbsim-program file '\Q$dir\E': it is a directory/ ],
	[ 'a missing file', "$dir/none", qr/cannot open --nbsim-program file '\Q$dir\E\/none'/ ],
	[ 'a bad line', write_file('bad', "wrmsr 0x3a0\n"), qr/bad line 1: expected 'wrmsr 0xMSR 0xVALUE'/ ],
	[ 'an unknown MSR', write_file('msr', "# c\nwrmsr 0x1 0x2\n"), qr/msr line 2: .*unknown MSR/ ],
);
for my $c (@cases) {
	my ($name, $file, $re) = @$c;
	my ($rc, $text) = nbsim("--nbsim-program=$file", "--nbsim-counts=$dir/counts", '--', $prog);
	is($rc, 1, "--nbsim-program=$name: status 1");
	like($text, $re, "--nbsim-program=$name: says which file and why") or diag($text);
	ok(!-e "$dir/counts", "--nbsim-program=$name: refused before the guest ran (no counts)");
	unlink "$dir/counts";
}

# control: a file of comments is a program that writes nothing
{
	my ($rc, $text) = nbsim('--nbsim-program=' . write_file('empty', "# nothing\n"), '--', $prog);
	is($rc, 0, '--nbsim-program=FILE of comments: the guest runs, exit 0') or diag($text);
}

done_testing();
