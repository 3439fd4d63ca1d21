"""Images and samplers on lavapipe for the oracle: a texture's mip levels (float32 RGBA
arrays, exactly the texels the interpreter samples) uploaded into a Vulkan image and
view of the matching dimensionality, and a sampler with the interpreter's settings."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lavapipe import DriverError, Lavapipe, _any_memory, wait

DIM_1D, DIM_2D, DIM_3D, DIM_CUBE = 0, 1, 2, 3
TEXEL_FORMATS = {"float": "VK_FORMAT_R32G32B32A32_SFLOAT", "int": "VK_FORMAT_R32G32B32A32_SINT",
                 "uint": "VK_FORMAT_R32G32B32A32_UINT", "depth": "VK_FORMAT_D32_SFLOAT"}


@dataclass
class TextureData:
    """Texels of every mip level, each an array [layers or depth, height, width, 4]."""

    levels: list
    dim: int
    arrayed: bool
    texel: str
    """"float", "int", "uint" or "depth" (only the red channel is kept)."""


@dataclass
class SamplerData:
    filter: str = "linear"
    mipmap: str = "nearest"
    address: str = "clamp"
    compare: bool = False


def _view_type(vk, dim: int, arrayed: bool):
    name = {DIM_1D: "1D", DIM_2D: "2D", DIM_3D: "3D", DIM_CUBE: "CUBE"}.get(dim)
    if name is None:
        raise DriverError(f"image dimensionality {dim} is not fed")
    return getattr(vk, f"VK_IMAGE_VIEW_TYPE_{name}{'_ARRAY' if arrayed else ''}")


def _texel_bytes(level: np.ndarray, texel: str) -> bytes:
    if texel == "depth":
        return np.ascontiguousarray(level[..., 0], dtype=np.float32).tobytes()
    if texel == "float":
        return np.ascontiguousarray(level, dtype=np.float32).tobytes()
    ints = np.asarray(level, dtype=np.float64).astype(np.int64)
    return np.ascontiguousarray(ints.astype(np.int32 if texel == "int" else np.uint32, casting="unsafe")).tobytes()


def upload_texture(driver: Lavapipe, keep, tex: TextureData):
    """A view of a new image holding `tex`'s levels, ready for sampling; `keep(destroy,
    handle)` records each object to destroy after the draw."""
    vk, dev = driver.vk, driver.device
    d, h, w, _ = tex.levels[0].shape
    fmt = getattr(vk, TEXEL_FORMATS[tex.texel])
    is3d = tex.dim == DIM_3D
    layers = 1 if is3d else d
    image_type = {DIM_1D: vk.VK_IMAGE_TYPE_1D, DIM_3D: vk.VK_IMAGE_TYPE_3D}.get(tex.dim, vk.VK_IMAGE_TYPE_2D)
    aspect = vk.VK_IMAGE_ASPECT_DEPTH_BIT if tex.texel == "depth" else vk.VK_IMAGE_ASPECT_COLOR_BIT
    image = keep(vk.vkDestroyImage, vk.vkCreateImage(dev, vk.VkImageCreateInfo(
        flags=vk.VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT if tex.dim == DIM_CUBE else 0,
        imageType=image_type, format=fmt, extent=vk.VkExtent3D(width=w, height=h, depth=d if is3d else 1),
        mipLevels=len(tex.levels), arrayLayers=layers, samples=vk.VK_SAMPLE_COUNT_1_BIT,
        tiling=vk.VK_IMAGE_TILING_OPTIMAL, usage=vk.VK_IMAGE_USAGE_SAMPLED_BIT | vk.VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE, initialLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED), None))
    req = vk.vkGetImageMemoryRequirements(dev, image)
    mem = keep(vk.vkFreeMemory, vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
        allocationSize=req.size, memoryTypeIndex=_any_memory(driver, req.memoryTypeBits)), None))
    vk.vkBindImageMemory(dev, image, mem, 0)
    chunks = [_texel_bytes(lv, tex.texel) for lv in tex.levels]
    data = b"".join(chunks)
    staging = keep(vk.vkDestroyBuffer, vk.vkCreateBuffer(dev, vk.VkBufferCreateInfo(
        size=len(data), usage=vk.VK_BUFFER_USAGE_TRANSFER_SRC_BIT, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None))
    breq = vk.vkGetBufferMemoryRequirements(dev, staging)
    bmem = keep(vk.vkFreeMemory, vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
        allocationSize=breq.size, memoryTypeIndex=driver._memory_type(breq.memoryTypeBits)), None))
    vk.vkBindBufferMemory(dev, staging, bmem, 0)
    mapped = vk.vkMapMemory(dev, bmem, 0, len(data), 0)
    mapped[: len(data)] = data
    vk.vkUnmapMemory(dev, bmem)
    whole = vk.VkImageSubresourceRange(aspectMask=aspect, baseMipLevel=0, levelCount=len(tex.levels),
                                       baseArrayLayer=0, layerCount=layers)
    regions, at = [], 0
    for i, lv in enumerate(tex.levels):
        ld, lh, lw, _ = lv.shape
        regions.append(vk.VkBufferImageCopy(
            bufferOffset=at, bufferRowLength=0, bufferImageHeight=0,
            imageSubresource=vk.VkImageSubresourceLayers(aspectMask=aspect, mipLevel=i, baseArrayLayer=0, layerCount=layers),
            imageOffset=vk.VkOffset3D(x=0, y=0, z=0),
            imageExtent=vk.VkExtent3D(width=lw, height=lh, depth=ld if is3d else 1)))
        at += len(chunks[i])

    def barrier(old, new, src, dst):
        return vk.VkImageMemoryBarrier(srcAccessMask=src, dstAccessMask=dst, oldLayout=old, newLayout=new,
                                       srcQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED,
                                       dstQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED, image=image, subresourceRange=whole)

    cmd = vk.vkAllocateCommandBuffers(dev, vk.VkCommandBufferAllocateInfo(
        commandPool=driver.pool, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1))[0]
    vk.vkBeginCommandBuffer(cmd, vk.VkCommandBufferBeginInfo(flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT))
    vk.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, vk.VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, None, 0, None,
                            1, [barrier(vk.VK_IMAGE_LAYOUT_UNDEFINED, vk.VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                        0, vk.VK_ACCESS_TRANSFER_WRITE_BIT)])
    vk.vkCmdCopyBufferToImage(cmd, staging, image, vk.VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, len(regions), regions)
    vk.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_TRANSFER_BIT, vk.VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, None, 0, None,
                            1, [barrier(vk.VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, vk.VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                        vk.VK_ACCESS_TRANSFER_WRITE_BIT, vk.VK_ACCESS_SHADER_READ_BIT)])
    vk.vkEndCommandBuffer(cmd)
    fence = keep(vk.vkDestroyFence, vk.vkCreateFence(dev, vk.VkFenceCreateInfo(), None))
    vk.vkQueueSubmit(driver.queue, 1, [vk.VkSubmitInfo(commandBufferCount=1, pCommandBuffers=[cmd])], fence)
    wait(driver, fence)
    vk.vkFreeCommandBuffers(dev, driver.pool, 1, [cmd])
    return keep(vk.vkDestroyImageView, vk.vkCreateImageView(dev, vk.VkImageViewCreateInfo(
        image=image, viewType=_view_type(vk, tex.dim, tex.arrayed), format=fmt, subresourceRange=whole), None))


def make_sampler(driver: Lavapipe, keep, s: SamplerData):
    vk = driver.vk
    filt = vk.VK_FILTER_LINEAR if s.filter == "linear" else vk.VK_FILTER_NEAREST
    address = vk.VK_SAMPLER_ADDRESS_MODE_REPEAT if s.address == "repeat" else vk.VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
    return keep(vk.vkDestroySampler, vk.vkCreateSampler(driver.device, vk.VkSamplerCreateInfo(
        magFilter=filt, minFilter=filt,
        mipmapMode=vk.VK_SAMPLER_MIPMAP_MODE_LINEAR if s.mipmap == "linear" else vk.VK_SAMPLER_MIPMAP_MODE_NEAREST,
        addressModeU=address, addressModeV=address, addressModeW=address, mipLodBias=0.0,
        anisotropyEnable=vk.VK_FALSE, maxAnisotropy=1.0,
        compareEnable=vk.VK_TRUE if s.compare else vk.VK_FALSE, compareOp=vk.VK_COMPARE_OP_LESS_OR_EQUAL,
        minLod=0.0, maxLod=vk.VK_LOD_CLAMP_NONE, borderColor=vk.VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
        unnormalizedCoordinates=vk.VK_FALSE), None))

