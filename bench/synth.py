"""A deterministic, seeded synthetic blog like ours, laid out for blogbuild, Hugo and Pelican.

    python bench/synth.py --n 1000 --seed 1 --out DIR [--corpus blog|code-series] [--hugo] [--pelican]

writes DIR/blogbuild/ (content/posts/*.md and blogbuild.yaml), and with --hugo DIR/hugo/ (hugo.toml,
a minimal theme of our own in layouts/, the same posts), with --pelican DIR/pelican/ (pelicanconf.py,
content/*.md with Pelican metadata, the same bodies). The same (n, seed) always gives the same bytes.

Importable too: generate(n, seed, corpus) -> list[SynthPost], then write_blogbuild / write_hugo / write_pelican.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

# Our own word lists: AI-infrastructure Chinese phrases and general plus technical English words.
CHINESE_WORDS = tuple("""
算子 张量 张量并行 流水线并行 数据并行 专家并行 序列并行 上下文并行 显存 显存带宽 内存墙 通信 集合通信
全归约 全收集 归约散射 点对点通信 拓扑 网络平面 交换机 链路 带宽 延迟 吞吐量 调度器 调度 推理 训练 微调
预训练 后训练 强化学习 奖励模型 策略模型 价值模型 采样 解码 预填充 批处理 连续批处理 动态批处理 量化
反量化 低精度 混合精度 半精度 整数量化 权重 激活值 梯度 优化器 优化器状态 检查点 重计算 激活重计算
注意力机制 多头注意力 分组查询注意力 键值缓存 分页注意力 前缀缓存 缓存命中率 缓存淘汰 长上下文 位置编码
旋转位置编码 归一化层 残差连接 前馈网络 混合专家 门控网络 负载均衡 路由 专家 词表 分词器 嵌入层 输出层
算力 峰值算力 利用率 模型算力利用率 硬件 芯片 加速卡 计算单元 矩阵乘法 向量单元 张量核心 共享内存
寄存器 线程块 线程束 核函数 内核融合 算子融合 图编译 编译器 中间表示 自动调优 内存布局 访存 合并访存
流水 异步 同步 屏障 信号量 事件 流 多流 拷贝引擎 主机 设备 主机内存 统一内存 页表 虚拟内存 内存池
分配器 碎片 开销 瓶颈 热点 性能剖析 火焰图 时间线 基准测试 压测 回归 稳定性 容错 故障恢复 弹性训练
集群 节点 超节点 机柜 机架 服务器 存储 对象存储 文件系统 分布式存储 数据加载 数据管道 预处理 后处理
服务化 在线服务 离线批量 请求 队列 排队 尾延迟 首字延迟 每词延迟 服务等级目标 限流 扩缩容 副本
负载 均衡器 网关 容器 编排 镜像 部署 灰度发布 监控 告警 日志 指标 追踪 可观测性 配置 参数 超参数
学习率 预热 衰减 批大小 全局批大小 微批 梯度累积 梯度裁剪 损失函数 收敛 发散 数值稳定性 溢出 下溢
精度损失 误差 评测 基准 数据集 语料 清洗 去重 标注 合成数据 蒸馏 剪枝 稀疏化 稀疏注意力 投机解码
草稿模型 验证 接受率 树状解码 束搜索 温度 采样策略 提示词 上下文窗口 滑动窗口 分块 切分 分片 重排
异构 国产芯片 生态 框架 运行时 算子库 通信库 驱动 固件 拓扑感知 亲和性 绑核 中断 轮询 零拷贝
远程直接内存访问 高速互联 光模块 功耗 散热 液冷 成本 性价比 单位成本 扩展性 线性扩展 弱扩展 强扩展
""".split())

# Connectives and short function words that make the Chinese read like sentences.
CHINESE_GLUE = tuple("""
的 了 在 是 和 与 把 将 对 从 到 中 上 下 时 后 前 里 也 都 就 还 又 再 更 最 很 不 没有 可以 需要 能够
因为 所以 但是 而且 如果 那么 虽然 然而 同时 其中 通过 基于 针对 关于 由于 为了 以及 或者 并且 首先
其次 最后 此外 因此 可见 也就是说 换句话说 一般来说 实际上 本质上 具体来说 相比之下 值得注意的是
""".split())

# Latin terms that Chinese posts about AI infra write inline, untranslated.
INLINE_TERMS = tuple("""
GPU NPU CUDA NCCL HCCL RDMA NVLink PCIe HBM DRAM SRAM MoE KV LLM vLLM SGLang Megatron DeepSpeed FSDP
ZeRO Triton TensorRT PyTorch JAX XLA MLIR Kubernetes Ray TPOT TTFT QPS SLA FP8 FP16 BF16 INT8 INT4
AllReduce AllGather ReduceScatter All2All FlashAttention PagedAttention RoPE GQA MLA RLHF PPO GRPO DPO
""".split())

ENGLISH_WORDS = tuple("""
the a an of to in on for with by from at as is are was were be been being that this these those it its
we our you they their which who when where while because since although however therefore thus also
only just more most less least very much many few each every all some any other another such same
system model layer kernel tensor memory bandwidth latency throughput cache buffer queue request batch
token sequence context window attention head expert router gate weight gradient optimizer state
checkpoint shard partition replica node cluster rack switch link network topology fabric device host
stream event barrier thread block warp register pipeline stage schedule scheduler runtime compiler graph
operator fusion layout stride tile loop unroll vector matrix scalar precision quantize scale offset
error loss accuracy benchmark baseline result measure metric trace profile timeline hotspot bottleneck
overhead cost budget target goal limit bound peak average median tail percentile rate ratio factor
training inference serving prefill decode sampling search draft verify accept reject retry fallback
start stop run wait read write load store copy move send receive reduce gather scatter broadcast split
merge sort filter map build test check compare choose keep drop use need make take give find show
simple fast slow large small long short high low early late first last next previous new old good
better best worse clear hard easy real simple stable careful naive smart practical common rare
design choice tradeoff detail idea question answer reason problem solution approach method technique
paper result number figure table section chapter note example case scenario workload traffic pattern
engineer team user reader author production deployment release version upgrade migration rollout
storage disk file object bucket dataset corpus sample record entry key value index hash map list
time second minute hour day week month year step epoch iteration round phase cycle window interval
grow shrink double halve overlap hide expose balance spread pack align pad round truncate clip
""".split())

ENGLISH_TERMS = INLINE_TERMS

# 40 tags, some Chinese, some English, as a blog on AI infrastructure uses them.
TAGS = ("LLM", "推理", "训练", "CUDA", "分布式训练", "MoE", "量化", "KV缓存", "调度", "通信",
        "NCCL", "RDMA", "昇腾", "GPU", "编译器", "Triton", "PyTorch", "Megatron", "vLLM", "SGLang",
        "强化学习", "RLHF", "注意力", "长上下文", "存储", "Kubernetes", "性能分析", "基准测试", "算子",
        "内存管理", "网络", "容错", "数据管道", "投机解码", "显存优化", "框架", "论文笔记", "AIInfra",
        "系统设计", "随笔")
CATEGORIES = ("系统", "论文", "工程", "随笔", "教程", "笔记")
SERIES = ("rl4llm", "推理引擎拆解", "分布式训练实战", "CUDA编程入门", "集合通信原理", "大模型量化",
          "昇腾超节点", "KV缓存管理")

MATH_INLINE = (
    r"O(n^2)", r"x_i", r"\alpha = 0.5", r"B \times S \times H", r"T_{decode}", r"\frac{1}{\sqrt{d_k}}",
    r"W_q, W_k, W_v", r"p_{\theta}(y \mid x)", r"\lambda_{max}", r"2 \cdot P \cdot b", r"\epsilon_t",
    r"\sum_i g_i", r"d_{model} = 4096", r"\log_2 N", r"\eta_t = \eta_0 / \sqrt{t}", r"k \ll n",
    r"\mathbb{E}[r]", r"s_{ij} = q_i^\top k_j", r"N_{gpu}", r"\beta_1, \beta_2",
)
MATH_DISPLAY = (
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right) V",
    r"TPOT = \frac{T_{decode}}{N_{tokens} - 1}",
    r"M_{kv} = 2 \times L \times H \times d_{head} \times S \times B \times b",
    r"\mathcal{L}(\theta) = -\mathbb{E}_{(x, y) \sim D} \left[ \log p_\theta(y \mid x) \right]",
    r"T_{allreduce} = 2 \cdot \frac{N - 1}{N} \cdot \frac{M}{B_{link}} + 2 (N - 1) \alpha",
    r"MFU = \frac{6 \cdot N_{params} \cdot tokens/s}{N_{gpu} \cdot F_{peak}}",
    r"A_t = \sum_{l=0}^{\infty} (\gamma \lambda)^l \delta_{t+l}",
    r"\hat{w} = s \cdot \mathrm{clip}\left(\left\lfloor \frac{w}{s} \right\rceil, -2^{b-1}, 2^{b-1} - 1\right)",
)

CODE_TEMPLATES = {
    "python": (
        "import torch\n\n\ndef {name}(x: torch.Tensor, {arg}: int = {number}) -> torch.Tensor:\n"
        "    \"\"\"{word} the {word2} in chunks of {arg}.\"\"\"\n"
        "    chunks = []\n"
        "    for start in range(0, x.shape[0], {arg}):\n"
        "        part = x[start:start + {arg}]\n"
        "        chunks.append(part.float().softmax(dim=-1).to(x.dtype))\n"
        "    return torch.cat(chunks, dim=0)\n\n\n"
        "if __name__ == \"__main__\":\n"
        "    y = {name}(torch.randn({number}, 128, device=\"cuda\"))\n"
        "    print(y.shape, y.dtype)  # {comment}\n"
    ),
    "bash": (
        "#!/usr/bin/env bash\nset -euo pipefail\n\n"
        "export NCCL_DEBUG=INFO\nexport {upper}_SIZE={number}\n"
        "for rank in $(seq 0 7); do\n"
        "  CUDA_VISIBLE_DEVICES=$rank python {name}.py --{arg} {number} &\n"
        "done\nwait\n"
        "echo \"{word} done: $(date +%s)\"  # {comment}\n"
    ),
    "yaml": (
        "{name}:\n  replicas: {number}\n  {arg}: true\n  resources:\n    limits:\n"
        "      nvidia.com/gpu: 8\n      memory: 512Gi\n  env:\n    - name: {upper}_MODE\n"
        "      value: \"{word}\"\n  # {comment}\n  schedule: [prefill, decode, {word2}]\n"
    ),
    "cpp": (
        "#include <cuda_runtime.h>\n\n"
        "__global__ void {name}(const float* __restrict__ in, float* out, int {arg}) {{\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < {arg}) {{\n"
        "    float v = in[i];\n"
        "    out[i] = v > 0.f ? v : 0.01f * v;  // {comment}\n"
        "  }}\n}}\n\n"
        "void launch_{name}(const float* in, float* out, int n, cudaStream_t stream) {{\n"
        "  {name}<<<(n + {number} - 1) / {number}, {number}, 0, stream>>>(in, out, n);\n}}\n"
    ),
}

FIRST_DATE = datetime(2016, 1, 1, tzinfo=timezone(timedelta(hours=8)))
LAST_DATE = datetime(2025, 12, 31, tzinfo=timezone(timedelta(hours=8)))
MEAN_POST_BYTES = 3800     # the mean size of a whole post file, front matter included


@dataclass(frozen=True)
class SynthPost:
    """One synthetic post: metadata and a markdown body that every tool reads the same way."""

    index: int
    slug: str
    title: str
    date: str                # ISO 8601 with a +08:00 offset
    tags: tuple[str, ...]
    categories: tuple[str, ...]
    series: str | None
    series_order: int | None
    math: bool
    body: str

    @property
    def file_name(self) -> str:
        return f"{self.slug}.md"


class _Writer:
    """A seeded source of words, sentences and blocks; one per corpus, so output depends on seed only."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def chinese_sentence(self) -> str:
        rng = self.rng
        parts = []
        for _ in range(rng.randint(4, 9)):
            roll = rng.random()
            if roll < 0.12:
                parts.append(rng.choice(INLINE_TERMS))
            elif roll < 0.45:
                parts.append(rng.choice(CHINESE_GLUE))
            else:
                parts.append(rng.choice(CHINESE_WORDS))
            if rng.random() < 0.12:
                parts.append("，")
        text = ""
        for part in parts:
            # Latin terms get a space on each side, as the corpus writes them; CJK joins directly.
            if part.isascii() and text and not text.endswith(" "):
                text += " " + part + " "
            else:
                text += part
        # No space before or after Chinese punctuation, as people type it.
        text = re.sub(r" *， *", "，", text).strip().strip("，")
        return text + rng.choice("。。。。！？")

    def english_sentence(self) -> str:
        rng = self.rng
        words = [rng.choice(ENGLISH_WORDS) for _ in range(rng.randint(7, 18))]
        if rng.random() < 0.4:
            words.insert(rng.randrange(len(words)), rng.choice(ENGLISH_TERMS))
        words[0] = words[0][0].upper() + words[0][1:]
        return " ".join(words) + rng.choice("....?")

    def decorate(self, text: str) -> str:
        """Sprinkle inline math, bold and inline code into a paragraph."""
        rng = self.rng
        if rng.random() < 0.35:
            text += f" 其中 ${rng.choice(MATH_INLINE)}$ 是关键量。" if not text.isascii() else \
                f" Here ${rng.choice(MATH_INLINE)}$ is the quantity that matters."
        if rng.random() < 0.25:
            word = rng.choice(CHINESE_WORDS) if not text.isascii() else rng.choice(ENGLISH_WORDS)
            text = f"**{word}**" + (" " if text.isascii() else "") + text
        if rng.random() < 0.2:
            text += f" 参见 `{rng.choice(INLINE_TERMS).lower()}_{rng.randint(1, 99)}`。"
        return text

    def paragraph(self) -> str:
        rng = self.rng
        if rng.random() < 0.7:
            text = "".join(self.chinese_sentence() for _ in range(rng.randint(2, 5)))
        else:
            text = " ".join(self.english_sentence() for _ in range(rng.randint(2, 5)))
        return self.decorate(text)

    def heading(self, level: int) -> str:
        rng = self.rng
        if rng.random() < 0.75:
            words = "".join(rng.choice(CHINESE_WORDS) for _ in range(rng.randint(1, 3)))
            if rng.random() < 0.3:
                words = f"{rng.choice(INLINE_TERMS)} {words}"
        else:
            words = " ".join(rng.choice(ENGLISH_WORDS) for _ in range(rng.randint(2, 5))).capitalize()
        return "#" * level + " " + words

    def display_math(self) -> str:
        return "$$\n" + self.rng.choice(MATH_DISPLAY) + "\n$$"

    def code_block(self) -> str:
        rng = self.rng
        language = rng.choice(tuple(CODE_TEMPLATES))
        name = "_".join(rng.choice(ENGLISH_WORDS) for _ in range(2)).replace("'", "")
        code = CODE_TEMPLATES[language].format(
            name=f"{name}_{rng.randint(0, 999)}", arg=rng.choice(("chunk", "world", "n", "block", "stride")),
            number=rng.choice((32, 64, 128, 256, 512, 1024)), word=rng.choice(ENGLISH_WORDS),
            word2=rng.choice(ENGLISH_WORDS), upper=rng.choice(INLINE_TERMS).upper(),
            comment=self.chinese_sentence() if rng.random() < 0.5 else self.english_sentence())
        return f"```{language}\n{code}```"

    def table(self) -> str:
        rng = self.rng
        columns = rng.randint(3, 4)
        header = ["配置", "吞吐量 (tokens/s)", "延迟 (ms)", "显存 (GiB)"][:columns]
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join([" --- "] + [" ---: "] * (columns - 1)) + "|"]
        for _ in range(rng.randint(3, 6)):
            cells = [f"{rng.choice(INLINE_TERMS)} {rng.choice(CHINESE_WORDS)}"]
            cells += [f"{rng.uniform(1, 5000):.1f}" for _ in range(columns - 1)]
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def mermaid(self) -> str:
        rng = self.rng
        labels = [rng.choice(CHINESE_WORDS) for _ in range(5)]
        lines = ["```mermaid", "flowchart TD"]
        lines.append(f"    A[{labels[0]}] --> B{{{labels[1]}}}")
        lines.append(f"    B -->|是| C[{labels[2]}]")
        lines.append(f"    B -->|否| D[{labels[3]}]")
        lines.append(f"    C --> E[{labels[4]}]")
        lines.append("    D --> E")
        lines.append("```")
        return "\n".join(lines)

    def list_block(self) -> str:
        rng = self.rng
        return "\n".join(f"- {self.chinese_sentence()}" for _ in range(rng.randint(2, 5)))

    def body(self, target_bytes: int, *, with_mermaid: bool, code_blocks: int = 1) -> str:
        """Blocks in a blog-like order until the body reaches target_bytes of UTF-8."""
        rng = self.rng
        blocks = [self.paragraph(), self.paragraph()]
        size = sum(len(block.encode()) + 2 for block in blocks)
        extras = ["math"] + ["code"] * code_blocks + ["table"] + (["mermaid"] if with_mermaid else [])
        rng.shuffle(extras)
        while size < target_bytes:
            roll = rng.random()
            if roll < 0.14:
                block = self.heading(rng.choice((2, 2, 3)))
            elif extras and roll < 0.30:
                kind = extras.pop()
                block = {"math": self.display_math, "code": self.code_block, "table": self.table,
                         "mermaid": self.mermaid}[kind]()
            elif roll < 0.36:
                block = self.list_block()
            else:
                block = self.paragraph()
            blocks.append(block)
            size += len(block.encode()) + 2
        return "\n\n".join(blocks) + "\n"


def _title(rng: random.Random, series: str | None) -> str:
    if rng.random() < 0.7:
        words = "".join(rng.choice(CHINESE_WORDS) for _ in range(rng.randint(2, 4)))
        title = f"{rng.choice(INLINE_TERMS)} {words}" if rng.random() < 0.5 else words
    else:
        title = " ".join(rng.choice(ENGLISH_WORDS) for _ in range(rng.randint(3, 7))).capitalize()
    return f"[{series}] {title}" if series else title


CORPORA = {
    # Our blog's shape: ~30% of posts in a series, at most one code block per post.
    "blog": {"code_blocks": 1, "series_share": 0.3},
    # Heavier on code and every post in one of the 8 series, so a series has ~1,250 parts at 10,000
    # posts (what long series cost per page shows here). Up to three code blocks fit in a post of mean
    # size, which gives about twice the code of "blog" per post (517 vs 244 characters at 1,000 posts).
    "code-series": {"code_blocks": 3, "series_share": 1.0},
}


def generate(n: int, seed: int, corpus: str = "blog") -> list[SynthPost]:
    """n synthetic posts of one corpus shape (CORPORA), the same for the same seed; sorted by index."""
    shape = CORPORA[corpus]
    rng = random.Random(seed)
    writer = _Writer(rng)
    span = int((LAST_DATE - FIRST_DATE).total_seconds())
    # Tags follow a skewed popularity, as in a real blog: a few tags on many posts, most on a few.
    tag_weights = [1.0 / (rank + 1) ** 0.8 for rank in range(len(TAGS))]
    drafts: list[dict] = []
    for index in range(n):
        series = rng.choice(SERIES) if rng.random() < shape["series_share"] else None
        date = FIRST_DATE + timedelta(seconds=rng.randrange(span))
        tags: list[str] = []
        for _ in range(rng.randint(1, 4)):
            tag = rng.choices(TAGS, weights=tag_weights)[0]
            if tag not in tags:
                tags.append(tag)
        # File size ~ a gamma-like spread around the mean; the front matter and the last block's overshoot are ~285 bytes.
        target = max(600, int(rng.gammavariate(4.0, (MEAN_POST_BYTES - 285) / 4.0)))
        body = writer.body(target, with_mermaid=rng.random() < 0.15, code_blocks=shape["code_blocks"])
        slug = f"post-{index:05d}-" + "-".join(rng.choice(ENGLISH_WORDS) for _ in range(2))
        drafts.append(dict(index=index, slug=slug, title=_title(rng, series), date=date.isoformat(),
                           tags=tuple(tags), categories=(rng.choice(CATEGORIES),), series=series,
                           series_order=None, math="$" in body, body=body))
    posts = [SynthPost(**fields) for fields in drafts]
    # series_order follows date order within each series (ties broken by index, so it is stable).
    for name in SERIES:
        members = sorted((post for post in posts if post.series == name), key=lambda p: (p.date, p.index))
        for order, post in enumerate(members, 1):
            posts[post.index] = replace(post, series_order=order)
    return posts


def _quote(text: str) -> str:
    # JSON strings are valid YAML double-quoted scalars and valid TOML basic strings.
    return json.dumps(text, ensure_ascii=False)


def front_matter_text(post: SynthPost) -> str:
    """The post as a Hugo-style markdown file with YAML front matter (read by blogbuild and Hugo)."""
    lines = ["---", f"title: {_quote(post.title)}", f"date: {post.date}",
             f"tags: [{', '.join(_quote(tag) for tag in post.tags)}]",
             f"categories: [{', '.join(_quote(c) for c in post.categories)}]"]
    if post.series:
        lines += [f"series: [{_quote(post.series)}]", f"series_order: {post.series_order}"]
    if post.math:
        lines.append("math: true")
    lines += ["---", "", post.body]
    return "\n".join(lines)


def pelican_text(post: SynthPost) -> str:
    """The post with Pelican's markdown metadata header and the same body."""
    date = post.date.replace("T", " ")
    lines = [f"Title: {post.title}", f"Date: {date}", f"Tags: {', '.join(post.tags)}",
             f"Category: {post.categories[0]}", f"Slug: {post.slug}"]
    if post.series:
        lines += [f"Series: {post.series}", f"Series_order: {post.series_order}"]
    lines += ["", post.body]
    return "\n".join(lines)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


BLOGBUILD_CONFIG = """\
title: "Synthetic AI Infra Blog"
base_url: "https://bench.example.org/"
language_code: "zh-CN"
author: "bench"
description: "A synthetic corpus for benchmarks"
paginate: 10
taxonomies: [tags, categories, series]
"""


def write_blogbuild(posts: list[SynthPost], site_dir: Path) -> Path:
    """Write site_dir/content/posts/*.md and site_dir/blogbuild.yaml; returns site_dir."""
    site_dir = Path(site_dir)
    for post in posts:
        _write(site_dir / "content" / "posts" / post.file_name, front_matter_text(post))
    _write(site_dir / "blogbuild.yaml", BLOGBUILD_CONFIG)
    return site_dir


HUGO_CONFIG = """\
baseURL = "https://bench.example.org/"
languageCode = "zh-CN"
title = "Synthetic AI Infra Blog"
hasCJKLanguage = true
summaryLength = 70
enableRobotsTXT = true

[pagination]
pagerSize = 10

[taxonomies]
tag = "tags"
category = "categories"
series = "series"

[markup.goldmark.renderer]
unsafe = true

# Keep TeX as written, as blogbuild does (Hugo's documented way to render math client-side).
[markup.goldmark.extensions.passthrough]
enable = true
[markup.goldmark.extensions.passthrough.delimiters]
block = [["$$", "$$"]]
inline = [["$", "$"]]

[markup.highlight]
noClasses = false

[markup.tableOfContents]
startLevel = 2
endLevel = 3
"""

# A minimal theme of our own (Hugo 0.146+ template layout): full pages, paginated lists with
# summaries, term and taxonomy pages; RSS, sitemap and robots.txt come from Hugo's built-in templates.
HUGO_LAYOUTS = {
    "baseof.html": """\
<!DOCTYPE html>
<html lang="{{ site.LanguageCode }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if .IsHome }}{{ site.Title }}{{ else }}{{ .Title }} | {{ site.Title }}{{ end }}</title>
<link rel="canonical" href="{{ .Permalink }}">
{{ with .OutputFormats.Get "rss" }}<link rel="alternate" type="application/rss+xml" href="{{ .Permalink }}">{{ end }}
{{ if .Params.math }}<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/katex@0.16.11/dist/katex.min.css">{{ end }}
</head>
<body>
<header><a href="{{ "/" | relURL }}">{{ site.Title }}</a>
<nav>{{ range site.Taxonomies }}{{ end }}<a href="{{ "tags/" | relURL }}">tags</a> <a href="{{ "series/" | relURL }}">series</a></nav>
</header>
<main>{{ block "main" . }}{{ end }}</main>
<footer>&copy; {{ now.Year }} {{ site.Title }}</footer>
</body>
</html>
""",
    "single.html": """\
{{ define "main" }}
<article>
<h1>{{ .Title }}</h1>
<p class="meta"><time datetime="{{ .Date.Format "2006-01-02T15:04:05-07:00" }}">{{ .Date.Format "2006-01-02" }}</time>
 · {{ .WordCount }} words · {{ .ReadingTime }} min</p>
{{ with .GetTerms "tags" }}<p class="tags">{{ range . }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a> {{ end }}</p>{{ end }}
{{ $current := . }}{{ with .GetTerms "series" }}{{ range . }}{{ $parts := .Pages.ByParam "series_order" }}
{{ $total := len $parts }}{{ $at := 0 }}{{ range $index, $part := $parts }}{{ if eq $part $current }}{{ $at = $index }}{{ end }}{{ end }}
{{ $start := int (math.Max 0 (math.Min (sub $at 3) (sub $total 7))) }}
<nav class="series"><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a> part {{ add $at 1 }} of {{ $total }}
<ol start="{{ add $start 1 }}">{{ range first 7 (after $start $parts) }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ol>
{{ if gt $at 0 }}{{ with index $parts (sub $at 1) }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ end }}
{{ if lt (add $at 1) $total }}{{ with index $parts (add $at 1) }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ end }}
</nav>{{ end }}{{ end }}
<nav class="toc">{{ .TableOfContents }}</nav>
{{ .Content }}
<nav class="pager">
{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
</nav>
{{ with site.RegularPages.Related . | first 5 }}<aside class="related"><h2>Related</h2><ul>
{{ range . }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></aside>{{ end }}
</article>
{{ end }}
""",
    "list.html": """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ $pager := .Paginate .Pages }}
{{ range $pager.Pages }}
<article class="summary"><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<time>{{ .Date.Format "2006-01-02" }}</time>
<div>{{ .Summary }}</div></article>
{{ end }}
{{ partial "pager.html" $pager }}
{{ end }}
""",
    "home.html": """\
{{ define "main" }}
{{ $pager := .Paginate (where site.RegularPages "Type" "posts") }}
{{ range $pager.Pages }}
<article class="summary"><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<time>{{ .Date.Format "2006-01-02" }}</time>
<div>{{ .Summary }}</div></article>
{{ end }}
{{ partial "pager.html" $pager }}
{{ end }}
""",
    "taxonomy.html": """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>
{{ end }}
</ul>
{{ end }}
""",
    "term.html": """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ $pager := .Paginate .Pages }}
{{ range $pager.Pages }}
<article class="summary"><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<time>{{ .Date.Format "2006-01-02" }}</time>
<div>{{ .Summary }}</div></article>
{{ end }}
{{ partial "pager.html" $pager }}
{{ end }}
""",
    "_partials/pager.html": """\
<nav class="pagination">
{{ with .Prev }}<a href="{{ .URL }}">newer</a>{{ end }}
<span>{{ .PageNumber }} / {{ .TotalPages }}</span>
{{ with .Next }}<a href="{{ .URL }}">older</a>{{ end }}
</nav>
""",
    "_markup/render-codeblock-mermaid.html": """\
<pre class="mermaid">{{ .Inner | htmlEscape | safeHTML }}</pre>
""",
    "_markup/render-passthrough.html": """\
{{ if eq .Type "block" }}<div class="math display">{{ .Inner | htmlEscape | safeHTML }}</div>{{ else }}<span class="math inline">{{ .Inner | htmlEscape | safeHTML }}</span>{{ end }}
""",
}


def write_hugo(posts: list[SynthPost], site_dir: Path) -> Path:
    """Write a Hugo site (hugo.toml, layouts/, content/posts/*.md) into site_dir; returns it."""
    site_dir = Path(site_dir)
    _write(site_dir / "hugo.toml", HUGO_CONFIG)
    for name, text in HUGO_LAYOUTS.items():
        _write(site_dir / "layouts" / name, text)
    for post in posts:
        _write(site_dir / "content" / "posts" / post.file_name, front_matter_text(post))
    return site_dir


PELICAN_CONFIG = """\
AUTHOR = "bench"
SITENAME = "Synthetic AI Infra Blog"
SITEURL = "https://bench.example.org"
PATH = "content"
TIMEZONE = "Asia/Shanghai"
DEFAULT_LANG = "zh"
DEFAULT_PAGINATION = 10
SUMMARY_MAX_LENGTH = 70
# The default output, plus the RSS feeds blogbuild and Hugo write (all posts, per tag, per category).
FEED_ALL_ATOM = "feeds/all.atom.xml"
FEED_ALL_RSS = "feeds/all.rss.xml"
CATEGORY_FEED_RSS = "feeds/{slug}.rss.xml"
TAG_FEED_RSS = "feeds/tag-{slug}.rss.xml"
ARTICLE_URL = "posts/{slug}/"
ARTICLE_SAVE_AS = "posts/{slug}/index.html"
LOAD_CONTENT_CACHE = False
DELETE_OUTPUT_DIRECTORY = True
"""


def write_pelican(posts: list[SynthPost], site_dir: Path) -> Path:
    """Write a Pelican site (pelicanconf.py, content/*.md) into site_dir; returns it."""
    site_dir = Path(site_dir)
    _write(site_dir / "pelicanconf.py", PELICAN_CONFIG)
    for post in posts:
        _write(site_dir / "content" / post.file_name, pelican_text(post))
    return site_dir


def main(argv: list[str] | None = None) -> int:
    """Generate the corpus and write the requested layouts; prints what it wrote."""
    parser = argparse.ArgumentParser(description="Write a synthetic blog for benchmarks.")
    parser.add_argument("--n", type=int, default=1000, help="number of posts (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="blog",
                        help="blog (default: our blog's shape) or code-series (twice the code, every post in a series)")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--hugo", action="store_true", help="also write DIR/hugo/")
    parser.add_argument("--pelican", action="store_true", help="also write DIR/pelican/")
    args = parser.parse_args(argv)
    posts = generate(args.n, args.seed, args.corpus)
    out = Path(args.out)
    written = [write_blogbuild(posts, out / "blogbuild")]
    if args.hugo:
        written.append(write_hugo(posts, out / "hugo"))
    if args.pelican:
        written.append(write_pelican(posts, out / "pelican"))
    total = sum(len(front_matter_text(post).encode()) for post in posts)
    print(f"{len(posts)} posts, mean {total / max(1, len(posts)):.0f} bytes; wrote "
          + ", ".join(str(path) for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
