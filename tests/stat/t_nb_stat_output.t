#!/usr/bin/perl
# nb_stat -o FILE when FILE is not a plain file to replace: a symbolic
# link (written through, the link kept), a device (/dev/null, /dev/full:
# written in place, never replaced by a regular file, a write error is
# status 122), a FIFO (a reader gets the counts), an open descriptor
# (/dev/fd/N: once refused, as no temporary file can be made in /dev/fd),
# a directory (refused
# before the program runs).  A root user's -o /dev/null once replaced the
# device node with a regular file (a temporary file renamed over it).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use POSIX qw(mkfifo);
use Fcntl qw(F_SETFD);
use NbStat;

my $dir = tempdir(CLEANUP => 1);
my @ev = ('-x', ',', '-e', 'PAPI_TOT_INS');
my $csv = qr/^2004,PAPI_TOT_INS,1,,$/m;

# a symbolic link to a file: the file gets the counts, written in place
# through the link (its inode and mode kept, as a shell's > keeps them),
# the link stays
{
	open(my $fh, '>', "$dir/target") or die;
	print $fh "old text, longer than the counts will be " x 4, "\n";
	close $fh;
	chmod 0640, "$dir/target";
	my $ino = (stat "$dir/target")[1];
	symlink('target', "$dir/link") or die;
	my ($rc, $text) = run_nb_stat(@ev, '-o', "$dir/link", '--', "$st/k_loop");
	is($rc, 0, '-o SYMLINK: exit 0') or diag($text);
	ok(-l "$dir/link", '-o SYMLINK: the link is still a link');
	open($fh, '<', "$dir/target") or die;
	my $got = do { local $/; <$fh> };
	like($got, $csv, '-o SYMLINK: the file it points to has the counts');
	unlike($got, qr/old text/, '-o SYMLINK: and nothing of its old text (truncated)');
	is((stat "$dir/target")[1], $ino, '-o SYMLINK: the file written in place (its inode kept)');
	is((stat "$dir/target")[2] & 07777, 0640, '-o SYMLINK: its mode kept');
	# a failed count leaves it as it was: -o is checked before the run,
	# truncated only when the counts are ready
	open($fh, '>', "$dir/target") or die;
	print $fh "kept\n";
	close $fh;
	{
		local $ENV{NBSIM} = '/nonexistent/nbsim';      # the run fails
		($rc, $text) = run_nb_stat('-e', 'PAPI_TOT_INS', '-o', "$dir/link", '--', "$st/k_loop");
	}
	is($rc, 121, '-o SYMLINK, a count that fails: status 121') or diag($text);
	open($fh, '<', "$dir/target") or die;
	is(do { local $/; <$fh> }, "kept\n", '-o SYMLINK, a count that fails: the file as it was');
}

# a link another user planted in a sticky world-writable directory (root
# running -o /tmp/report): not followed, status 122, the file it names
# untouched.  nb_stat once resolved the link with realpath(3) and renamed
# its report over the file the link named (fs.protected_symlinks guards
# open(2), not realpath and rename).
SKIP: {
	skip 'needs root (a link owned by another user)', 11 if $> != 0;
	my $sticky = "$dir/sticky";
	mkdir $sticky or die;
	chmod 01777, $sticky or die;
	my $victim = "$dir/victim";
	open(my $fh, '>', $victim) or die;
	print $fh "precious\n";
	close $fh;
	symlink($victim, "$sticky/report") or die;
	system('chown', '-h', '65534:65534', "$sticky/report") == 0 or die "chown -h failed";
	my ($rc, $text) = run_nb_stat(@ev, '-o', "$sticky/report", '--', "$st/k_loop");
	is($rc, 122, '-o a link another user planted in a sticky directory: status 122') or diag($text);
	like($text, qr/symbolic link owned by uid 65534 in the sticky world-writable directory.*not followed/,
	     '-o a planted link: says why') or diag($text);
	open($fh, '<', $victim) or die;
	is(do { local $/; <$fh> }, "precious\n", '-o a planted link: the file it names untouched');
	ok(-l "$sticky/report", '-o a planted link: the link left as it is');
	# dangling: nothing created where it points
	symlink("$dir/created", "$sticky/dangling") or die;
	system('chown', '-h', '65534:65534', "$sticky/dangling") == 0 or die;
	($rc, $text) = run_nb_stat(@ev, '-o', "$sticky/dangling", '--', "$st/k_loop");
	is($rc, 122, '-o a planted dangling link: status 122') or diag($text);
	ok(!-e "$dir/created", '-o a planted dangling link: nothing created where it points');
	# the user's own link there: followed
	open($fh, '>', "$dir/mine") or die;
	close $fh;
	symlink("$dir/mine", "$sticky/mine") or die;
	($rc, $text) = run_nb_stat(@ev, '-o', "$sticky/mine", '--', "$st/k_loop");
	is($rc, 0, '-o my own link in a sticky directory: exit 0') or diag($text);
	open($fh, '<', "$dir/mine") or die;
	like(do { local $/; <$fh> }, $csv, '-o my own link in a sticky directory: followed');
	# a plain file there: replaced by rename as anywhere, no link involved
	($rc, $text) = run_nb_stat(@ev, '-o', "$sticky/plain", '--', "$st/k_loop");
	is($rc, 0, '-o a new file in a sticky directory: exit 0') or diag($text);
	ok(-f "$sticky/plain" && !-l "$sticky/plain", '-o a new file in a sticky directory: a plain file');
	is(scalar(() = glob("$sticky/*.??????")), 0, '-o in a sticky directory: no temporary file left');
}

# devices: as root, our own nodes (mknod), never the system's
sub device {
	my ($name, $minor) = @_;
	return "/dev/$name" if $> != 0;
	system('mknod', "$dir/$name", 'c', '1', $minor) == 0 or BAIL_OUT("mknod $name failed");
	return "$dir/$name";
}
{
	my $null = device('null', 3);
	my ($rc, $text) = run_nb_stat(@ev, '-o', $null, '--', "$st/k_loop");
	is($rc, 0, "-o $null: exit 0") or diag($text);
	ok(-c $null, "-o $null: still a character device");
	is(scalar(() = glob("$null.*")), 0, "-o $null: no temporary file left beside it");

	my $full = device('full', 7);
	($rc, $text) = run_nb_stat(@ev, '-o', $full, '--', "$st/k_loop");
	is($rc, 122, "-o $full: status 122 (the write fails)");
	like($text, qr/cannot write \Q$full\E: No space left on device/, "-o $full: says why");
	ok(-c $full, "-o $full: still a character device");
}

# a FIFO with a reader
{
	my $fifo = "$dir/fifo";
	mkfifo($fifo, 0600) or die "mkfifo: $!";
	my $reader = fork() // die;
	if (!$reader) {
		alarm 120;
		open(my $in, '<', $fifo) or exit 1;
		open(my $o, '>', "$dir/fifo.got") or exit 1;
		print $o $_ while <$in>;
		exit 0;
	}
	my ($rc, $text) = run_nb_stat(@ev, '-o', $fifo, '--', "$st/k_loop");
	is($rc, 0, '-o FIFO: exit 0') or diag($text);
	ok(-p $fifo, '-o FIFO: still a FIFO');
	kill 'KILL', $reader unless $rc == 0 && -p $fifo;
	waitpid($reader, 0);
	my ($got, $fh) = ('');
	$got = do { local $/; <$fh> } // '' if open($fh, '<', "$dir/fifo.got");
	like($got, $csv, '-o FIFO: the reader got the counts');
}

# an open descriptor (/dev/fd/N, as a shell's >(command) gives)
{
	pipe(my $r, my $w) or die;
	fcntl($w, F_SETFD, 0) or die;          # inherited by nb_stat
	my $n = fileno($w);
	my ($rc, $text) = run_nb_stat(@ev, '-o', "/dev/fd/$n", '--', "$st/k_loop");
	close $w;
	is($rc, 0, '-o /dev/fd/N: exit 0') or diag($text);
	like(do { local $/; <$r> } // '', $csv, '-o /dev/fd/N: the counts go down the descriptor');
}

# a directory: refused before the program runs
{
	mkdir "$dir/d";
	my ($rc, $text) = run_nb_stat(@ev, '-o', "$dir/d", '--', '/usr/bin/touch', "$dir/ran");
	is($rc, 122, '-o DIRECTORY: status 122');
	like($text, qr/cannot write \Q$dir\E\/d: Is a directory/, '-o DIRECTORY: says why');
	ok(!-e "$dir/ran", '-o DIRECTORY: refused before the program ran');
}

# -o '' (an unset variable, "-o $OUT") names no file.  It once wrote the
# report over PROGRAM's own executable (the path buffer held the program's
# resolved path); neither that nor -o PROGRAM may touch PROGRAM's bytes.
{
	require File::Copy;
	my $prog = "$dir/prog";
	File::Copy::copy("$st/k_loop", $prog) or die "copy: $!";
	chmod(0755, $prog) or die;
	my $bytes = sub { open(my $fh, '<:raw', $prog) or die; local $/; <$fh> };
	my $before = $bytes->();
	for my $o (['-o', ''], ['--output='], ['-o', $prog], ['-o', "$dir/./prog"]) {
		my $say = join(' ', map { $_ eq '' ? "''" : $_ } @$o);
		my ($rc, $text) = run_nb_stat(@ev, @$o, '--', $prog);
		my $want = $o->[-1] =~ /prog$/ ? 122 : 125;
		is($rc, $want, "$say: refused, status $want") or diag($text);
		like($text, $want == 125 ? qr/-o: empty file name/ : qr/is PROGRAM .* itself/,
		     "$say: the message names the cause");
		ok($bytes->() eq $before, "$say: PROGRAM's bytes unchanged");
		ok(-x $prog, "$say: PROGRAM still executable");
	}
	# a program found through PATH, as the audit ran it
	local $ENV{PATH} = "$dir:$ENV{PATH}";
	my ($rc, $text) = run_nb_stat(@ev, '-o', '', '--', 'prog');
	is($rc, 125, "-o '' with PROGRAM from PATH: refused") or diag($text);
	ok($bytes->() eq $before, "-o '' with PROGRAM from PATH: bytes unchanged");
}

done_testing();
