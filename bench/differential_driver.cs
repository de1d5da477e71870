// differential_driver.cs: per-game figures of random games in CardStock, for bench/differential.py.
//
// Written for this project (not CardStock code).  bench/differential.py compiles it with mcs
// against the CardStock.dll and Antlr4.Runtime.Standard.dll built by shared/tools/cardstock/build.sh.
//
// usage: mono differential-driver.exe GAMEFILE FIRST COUNT [--seed S] [--limit L] [--budget SECONDS]
//
// Plays games FIRST .. FIRST+COUNT-1; game i reseeds CardStock's random source with a 31-bit mix of
// (S, i) (SplitMix64) before it starts, so every game can be replayed alone and a batch can be resumed
// anywhere.  Mixed, not S + i: System.Random's first draws for neighbouring seeds are nearly equal,
// which made short games (KuhnPoker2) open with the same choice every time.  All seats are
// CardStock's own random player.  One JSON object per line and game:
//   {"run": i, "end": "normal"|"limit"|"stuck"|"error", "decisions": D,
//    "choosers": [seat of each decision], "options": [option count of each decision],
//    "scores": [score of seat 0, 1, ...], "max": true|false, "error": "..."}
// "limit": cut off after L decisions; "stuck": CardStock's own guard of 200 steps without a
// decision ended the game; "error": an exception.  Stops early (cleanly, after a whole game)
// once SECONDS of wall time have passed.  --transcript NAME writes CardStock's transcript of the
// games to NAME.txt.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;
using Antlr4.Runtime;
using CardStock;
using CardStock.CardEngine;
using CardStock.FreezeFrame;
using CardStock.Scoring;

namespace DifferentialDriver
{
    public static class Program
    {
        static string Quote(string s)
        {
            var b = new StringBuilder("\"");
            foreach (char c in s)
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < ' ') b.Append(' ');
                else b.Append(c);
            }
            return b.Append('"').ToString();
        }

        static string Ints(List<int> xs)
        {
            return "[" + string.Join(",", xs) + "]";
        }

        // SplitMix64 of (seed, i), folded to a non-negative int
        static int Mix(int seed, int i)
        {
            unchecked
            {
                ulong z = (ulong)seed * 0x9E3779B97F4A7C15UL + (ulong)(i + 1) * 0xD1B54A32D192ED03UL;
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                z ^= z >> 31;
                return (int)(z & 0x7FFFFFFF);
            }
        }

        public static int Main(string[] args)
        {
            if (args.Length < 3)
            {
                Console.Error.WriteLine("usage: differential-driver.exe GAMEFILE FIRST COUNT [--seed S] [--limit L] [--budget SECONDS]");
                return 2;
            }
            string path = args[0];
            int first = int.Parse(args[1]), count = int.Parse(args[2]);
            int seed = 1, limit = 2000;
            double budget = 1e9;
            string transcript = null;
            for (int a = 3; a < args.Length; a++)
            {
                if (args[a] == "--seed") seed = int.Parse(args[++a]);
                else if (args[a] == "--limit") limit = int.Parse(args[++a]);
                else if (args[a] == "--transcript") transcript = args[++a];
                else if (args[a] == "--budget") budget = double.Parse(args[++a], System.Globalization.CultureInfo.InvariantCulture);
            }
            Transcript.Enabled = transcript != null;  // CardStock's own log of one game, for looking into it
            // CardStock's loader drops ";;" comments the same way before parsing.
            string text = new Regex("(;;)(.*?)(\n)").Replace(File.ReadAllText(path), "\n");
            var parser = new RecycleParser(new CommonTokenStream(new RecycleLexer(new AntlrInputStream(text))));
            var tree = parser.game();
            if (parser.NumberOfSyntaxErrors > 0)
            {
                Console.Error.WriteLine(path + ": syntax errors");
                return 1;
            }
            var world = new World();
            var realOut = Console.Out;
            var clock = Stopwatch.StartNew();
            for (int i = first; i < first + count && clock.Elapsed.TotalSeconds < budget; i++)
            {
                ThreadSafeRandom.Seed(Mix(seed, i));
                var chatter = new StringWriter();
                Console.SetOut(chatter);  // CardStock prints "Game stuck in loop" and the like
                var choosers = new List<int>();
                var options = new List<int>();
                var scores = new List<int>();
                string end = "normal", error = null;
                bool isMax = true;
                GameIterator it = null;
                try
                {
                    it = new GameIterator(tree, new CardGame(), world, transcript ?? "differential");
                    while (!it.AdvanceToChoice())
                    {
                        if (it.totalChoices >= limit) { end = "limit"; break; }
                        // the seat that decides, read before the option runs (it may pass the turn)
                        choosers.Add(it.game.CurrentPlayer().Current().id);
                        it.ProcessChoice();
                        options.Add(it.choiceList[it.choiceList.Count - 1].Item2);
                    }
                    if (end == "normal" && chatter.ToString().Contains("stuck")) end = "stuck";
                    var result = it.ProcessScore();
                    isMax = result.Item2 == 1;
                    var bySeat = new int[result.Item1.Count];
                    foreach (var pair in result.Item1) bySeat[pair.Item2] = pair.Item1;
                    scores.AddRange(bySeat);
                }
                catch (Exception e)
                {
                    end = "error";
                    error = e.GetType().Name + ": " + e.Message;
                }
                Console.SetOut(realOut);
                int n = Math.Min(choosers.Count, options.Count);
                if (choosers.Count > n) choosers.RemoveRange(n, choosers.Count - n);
                var line = new StringBuilder();
                line.Append("{\"run\": ").Append(i)
                    .Append(", \"end\": ").Append(Quote(end))
                    .Append(", \"decisions\": ").Append(it == null ? 0 : it.totalChoices)
                    .Append(", \"choosers\": ").Append(Ints(choosers))
                    .Append(", \"options\": ").Append(Ints(options))
                    .Append(", \"scores\": ").Append(Ints(scores))
                    .Append(", \"max\": ").Append(isMax ? "true" : "false");
                if (error != null) line.Append(", \"error\": ").Append(Quote(error));
                line.Append("}");
                Console.WriteLine(line.ToString());
                Console.Out.Flush();
            }
            return 0;
        }
    }
}
