#!/usr/bin/perl
# nb_report --html (utils/nb_report.c, utils/report/): the page a user opens,
# checked in a real headless browser (Debian's Chromium, installed by
# configure), on a PEBS profile with call stacks of the hotspot program's
# two functions (tests/record/hotspot.c; nb_record -g): after the page's
# scripts ran, the DOM holds the flame graph (d3-flame-graph's frames for
# main, miss3, miss1 and chase), the hottest functions (chase first), the
# hottest source line outlined with its text, the chart of samples by
# instruction (Chart.js) and the data lines; the browser logs no error; a
# screenshot is taken (its size says it is not blank).  The program's name
# holds '<' and '&': the page shows it as it is.  Bad input: distinct
# exit statuses, nothing half-written.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use RunCmd;
use File::Temp qw(tempdir);

my $bin = $ENV{NB_UTILS_BIN} or BAIL_OUT('NB_UTILS_BIN not set (run through make check)');
my $rec = "$bin/nb_record";
my $rep = "$bin/nb_report";
my $hs = "$ENV{NB_BUILD}/tests/record/hotspot";
my $assets = "$ENV{NB_BUILD}/share/report";
my $chromium = '/usr/bin/chromium';
my $dir = tempdir(CLEANUP => 1);
-x $rec && -x $rep && -x $hs or BAIL_OUT('nb_record, nb_report or the hotspot program not built');
-x $chromium or BAIL_OUT("$chromium is not installed (configure installs Debian's chromium)");
# the sanitizer build of nb_report is not beside the installed page
$ENV{NB_REPORT_ASSETS} = $assets;


# the program under a name with '<' and '&', as a page must quote it
my $prog = "$dir/hot<spot&";
system('cp', $hs, $prog) == 0 or BAIL_OUT("cp $hs: $?");
my ($rc, $text) = run_cmd($rec, '--model=northwood', '-g', '-e', '1stL_cache_load_miss_retired/1000',
		      '-o', "$dir/two.prof", '--', $prog, 'two');
is($rc, 0, 'nb_record -g on hotspot two') or diag($text);

my $out = "$dir/report";
($rc, $text) = run_cmd($rep, '--html', $out, "$dir/two.prof");
is($rc, 0, 'nb_report --html DIR') or diag($text);
ok(-s "$out/$_", "DIR/$_ written") for qw(index.html report.js d3.min.js d3-flamegraph.min.js
					   chart.umd.min.js LICENSES.txt);
ok(!glob("$out/.index.html.*"), 'no temporary file left');

# the page after its scripts ran, as Chromium's DOM
my @chrome = ($chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
	      '--virtual-time-budget=10000', '--enable-logging=stderr', '--v=0',
	      "--user-data-dir=$dir/chrome");
my $pid = open(my $fh, '-|') // die "fork: $!";
if (!$pid) {
	open(STDERR, '>', "$dir/chrome.log");
	exec @chrome, '--dump-dom', "file://$out/index.html" or exit 250;
}
my $dom = do { local $/; <$fh> } // '';
close $fh;
my $log = '';
if (open(my $l, '<', "$dir/chrome.log")) {
	local $/;
	$log = <$l> // '';
}
like($dom, qr/<body[^>]*data-nb-ready="1"/, "the page's script ran to its end") or diag($log);
my @console = grep { /CONSOLE|Uncaught|ERROR:.*(report\.js|index\.html)/ } split /\n/, $log;
is(scalar(@console), 0, 'the browser logged no error of the page') or diag(join("\n", @console));

my ($flame) = $dom =~ /<div class="flame" id="flame-0">(.*?)<\/svg>/s;
ok(defined $flame && $flame =~ /<svg[^>]*class="[^"]*\bd3-flame-graph\b/, 'the flame graph is drawn (an svg.d3-flame-graph)');
my $frames = () = ($flame // '') =~ /<g /g;
cmp_ok($frames, '>=', 5, "the flame graph has a frame per stack entry ($frames)");
like($flame // '', qr/>$_</, "the flame graph shows $_") for qw(main miss3 miss1 chase);

my ($t1) = $dom =~ /<h3>Hottest functions<\/h3><table>(.*?)<\/table>/s;
my ($first) = ($t1 // '') =~ /<tr><td class="n">\d+<\/td><td class="n">[\d.]+<\/td><td>([^<]*)</;
is($first, 'chase', 'the hottest function is chase');

open(my $src, '<', "$ENV{NB_SRC}/tests/record/hotspot.c") or BAIL_OUT("hotspot.c: $!");
my @src = <$src>;
my ($hl) = $dom =~ /<span class="hottest" id="hottest-line-0"[^>]*>([^<]*)</;
ok(defined $hl, 'the hottest source line is outlined');
my ($ln, $code) = ($hl // '') =~ /^\s*\d+\s+(\d+)  (.*)$/;
(my $want = defined $ln ? $src[$ln - 1] // '' : '') =~ s/\t/        /g;
ok(defined $ln && $want =~ /\Q$code\E/ && $code =~ /\S/,
   'the outlined line shows its source text: ' . ($code // '?'));
like($dom, qr/<canvas id="ip-chart-0"/, 'the chart of samples by instruction is drawn');
like($dom, qr/Data lines \(64 bytes\).*?<table>.*?0x[0-9a-f]+/s, 'the data lines are listed');
my ($cmd) = $dom =~ /<code id="nb-command">([^<]*)<\/code>/;
is($cmd, "$dir/hot&lt;spot&amp; two", "the program's name with '<' and '&' shown as it is");

# a screenshot: the drawn page is not blank
run_cmd(@chrome, "--screenshot=$dir/shot.png", '--window-size=1280,1600', "file://$out/index.html");
ok(-s "$dir/shot.png" && -s "$dir/shot.png" > 30000,
   'a screenshot of the page (' . (-s "$dir/shot.png" // 0) . ' bytes of PNG)');
if ($ENV{NB_KEEP_SHOT}) {
	system('cp', "$dir/shot.png", $ENV{NB_KEEP_SHOT});
}

# ---- bad input ----
($rc, $text) = run_cmd($rep, '--html', '', "$dir/two.prof");
is($rc, 2, "--html '': usage (2)");
like($text, qr/empty folder name/, '... naming the cause');
open(my $f, '>', "$dir/plain") or die;
close $f;
($rc, $text) = run_cmd($rep, '--html', "$dir/plain", "$dir/two.prof");
is($rc, 5, '--html onto a file: cannot write (5)');
like($text, qr/not a folder/, '... naming the cause');
($rc, $text) = run_cmd($rep, '--html', '/proc/nb_report_html', "$dir/two.prof");
is($rc, 5, '--html in a folder that cannot be made: 5');
($rc, $text) = run_cmd($rep, '--html', "$dir/x", '--folded', "$dir/two.prof");
is($rc, 2, '--html with --folded: usage (2)');
{
	local $ENV{NB_REPORT_ASSETS} = "$dir/none";
	($rc, $text) = run_cmd($rep, '--html', "$dir/y", "$dir/two.prof");
	is($rc, 1, 'no template where NB_REPORT_ASSETS says: 1');
	like($text, qr/cannot read the template/, '... naming the cause');
	ok(!-e "$dir/y/index.html", '... and no page written');
}

done_testing();
